import Testing

@testable import ResolveKitSystemFunctions

struct MountTableTests {
    static let mounts = """
        proc /proc proc rw,relatime 0 0
        sysfs /sys sysfs rw,relatime 0 0
        /dev/vda1 / ext4 rw,relatime 0 0
        tmpfs /run tmpfs rw,nosuid 0 0
        cgroup2 /sys/fs/cgroup cgroup2 rw 0 0
        /dev/vdb1 /srv/my\\040data xfs rw 0 0
        /dev/vdc1 /var/log ext4 rw 0 0
        /dev/vdd1 /var/log ext4 rw 0 0
        garbage

        """

    @Test func parsesEntriesAndDecodesOctalEscapes() {
        let entries = MountTable.parse(Self.mounts)
        #expect(entries.count == 8)
        #expect(entries[5] == MountEntry(device: "/dev/vdb1", mountPoint: "/srv/my data", type: "xfs"))
    }

    @Test(arguments: [
        ("a\\040b", "a b"), ("tab\\011", "tab\t"), ("back\\134slash", "back\\slash"), ("\\04", "\\04"),
        ("\\999", "\\999"), ("\\+12", "\\+12"),
    ])
    func decodesOnlyThreeDigitOctalEscapes(field: String, decoded: String) {
        #expect(MountTable.unescape(field[...]) == decoded)
    }

    @Test(arguments: [(false, ["/", "/srv/my data", "/var/log"]), (true, ["/", "/run", "/srv/my data", "/var/log"])])
    func keepsStorageAndDropsPseudoFileSystems(includeTmpfs: Bool, mountPoints: [String]) {
        let kept = MountTable.storage(MountTable.parse(Self.mounts), includeTmpfs: includeTmpfs)
        #expect(kept.map(\.mountPoint) == mountPoints)
    }

    @Test func reportsTheTopmostOfStackedMounts() {
        let kept = MountTable.storage(MountTable.parse(Self.mounts), includeTmpfs: false)
        #expect(kept.first { $0.mountPoint == "/var/log" }?.device == "/dev/vdd1")
    }

    @Test(arguments: [
        ("/var/log/syslog", "/var/log"), ("/var/log2", "/"), ("/var/log", "/var/log"),
        ("/srv/my data/x", "/srv/my data"), ("/", "/"),
    ])
    func findsTheMountHoldingAPathComponentWise(path: String, mountPoint: String) {
        #expect(MountTable.containing(path, in: MountTable.parse(Self.mounts))?.mountPoint == mountPoint)
    }
}
