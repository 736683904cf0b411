import Foundation
import Glibc

/// The files an install left under a prefix, as its manifest lists them: read, and removed again.
enum InstalledFiles {
    /// What removing one installed file came to.
    enum Removal: Equatable {
        case removed
        /// Someone removed it already.
        case alreadyGone
        /// Its content is no longer what was installed: kept, so an edit is never lost.
        case changed
        case failed(reason: String)
    }

    /// The manifest at `path`, or `nil` when there is none.
    static func manifest(at path: String) throws(Installer.Failure) -> InstallManifest? {
        guard let data = FileManager.default.contents(atPath: path) else {
            guard access(path, F_OK) == 0 else { return nil }
            throw Installer.Failure(description: "cannot read \(path)")
        }
        do {
            return try InstallManifest(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw Installer.Failure(description: "\(path):\(error.line): \(error.reason)")
        }
    }

    /// What became of an installed file.
    enum Status: Equatable {
        case asInstalled, changed, unreadable, gone
    }

    /// What became of the file `entry` names since it was installed.
    static func status(of entry: InstallManifest.Entry) -> Status {
        guard let data = FileManager.default.contents(atPath: entry.path) else {
            return access(entry.path, F_OK) == 0 ? .unreadable : .gone
        }
        return entry.matches([UInt8](data)) ? .asInstalled : .changed
    }

    /// Removes the file `entry` names when its content is still what was installed.
    static func remove(_ entry: InstallManifest.Entry) -> Removal {
        switch status(of: entry) {
        case .gone: return .alreadyGone
        case .changed: return .changed
        case .unreadable: return .failed(reason: "cannot read it")
        case .asInstalled:
            guard unlink(entry.path) == 0 || errno == ENOENT else {
                return .failed(reason: String(cString: strerror(errno)))
            }
            return .removed
        }
    }

    /// Removes every file the manifest of `plan` lists, and the manifest, calling `report` with each line to print.
    /// A file changed since it was installed, or one that cannot be removed, stays listed in the manifest, and the
    /// uninstall fails naming it.
    static func uninstall(_ plan: InstallPlan, dryRun: Bool, report: (String) -> Void) throws(Installer.Failure) {
        guard let manifest = try manifest(at: plan.manifest) else {
            throw Installer.Failure(
                description: "nothing to uninstall: \(plan.manifest) does not exist (rk-install writes it when it "
                    + "installs)")
        }
        if dryRun {
            var keeps = false
            for entry in manifest.entries {
                switch status(of: entry) {
                case .asInstalled: report("would remove \(entry.path)")
                case .changed, .unreadable:
                    keeps = true
                    report("would keep \(entry.path) (changed since it was installed, or unreadable)")
                case .gone: report("already gone: \(entry.path)")
                }
            }
            if !keeps { report("would remove \(plan.manifest)") }
            return
        }
        var kept: [InstallManifest.Entry] = []
        var problems: [String] = []
        for entry in manifest.entries {
            switch remove(entry) {
            case .removed: report("removed \(entry.path)")
            case .alreadyGone: report("already gone: \(entry.path)")
            case .changed:
                kept.append(entry)
                problems.append("\(entry.path) changed since it was installed; kept it")
            case .failed(let reason):
                kept.append(entry)
                problems.append("cannot remove \(entry.path): \(reason)")
            }
        }
        guard kept.isEmpty else {
            try Installer.record(kept, at: plan.manifest)
            throw Installer.Failure(
                description: problems.joined(separator: "\n") + "\n\(plan.manifest) lists what is left")
        }
        guard unlink(plan.manifest) == 0 || errno == ENOENT else {
            throw Installer.Failure(description: "cannot remove \(plan.manifest): \(String(cString: strerror(errno)))")
        }
        report("removed \(plan.manifest)")
        // The package's own folder goes when it is empty; the prefix's shared folders stay.
        rmdir((plan.manifest as NSString).deletingLastPathComponent)
    }
}
