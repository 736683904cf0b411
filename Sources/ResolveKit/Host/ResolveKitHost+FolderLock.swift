import ResolveKitCore
import Synchronization

extension ResolveKitHost {
    /// The host's hold on its state folder (`<folder>/lock`, as a runtime's): taken when the first key is used,
    /// released when the host is drained.
    enum FolderLock: Sendable {
        case notTaken
        case held(StateFolderLock)
        case released
    }

    /// Takes the state folder for this host, once: a second host or runtime on the folder, in this process or
    /// another, is refused with `stateLocked` whichever key it asks for, rather than taking keys over one by one as
    /// this host closes them idle. Nothing to take with in-memory or Redis state. Once taken, the keys the last
    /// process left with results undelivered get them delivered (``startRecovery(in:)``).
    /// - Throws: ``ResolveKitError``: `stateLocked` naming the holder's pid, or `stateStore` when the folder cannot
    ///   be used.
    func lockFolderIfNeeded() throws(ResolveKitError) {
        let taken = try folderLock.withLock { (lock) throws(ResolveKitError) -> String? in
            guard case .notTaken = lock, let folder = configuration.resolvedStateDirectory else { return nil }
            do throws(StateFolderLockError) {
                lock = .held(try StateFolderLock(folder: folder))
                return folder
            } catch {
                let code: ResolveKitError.Code = error.isHeldByAnother ? .stateLocked : .stateStore
                throw ResolveKitError(code, error.description, underlying: error)
            }
        }
        if let taken { startRecovery(in: taken) }
    }

    /// Lets the folder go: the host was drained and opens nothing more.
    func releaseFolder() {
        folderLock.withLock { $0 = .released }
    }
}
