@testable import ResolveKit
import Testing

struct HostClientInfoTests {
    @Test func describesALinuxHostWithAPlainDottedVersion() {
        let info = HostClientInfo.make(
            appVersion: "2.1.0", appBuild: "7",
            osRelease: "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\n")
        #expect(info == ClientInfo(
            platform: "linux", osName: "Debian GNU/Linux", osVersion: "12", appVersion: "2.1.0", appBuild: "7",
            sdkName: "resolvekit-linux-sdk", sdkVersion: "1.0.0"))
    }

    @Test func fallsBackToTheKernelVersionWithoutItsSuffix() {
        let info = HostClientInfo.make(appVersion: "1", appBuild: nil, osRelease: "NAME=Arch\n", kernelRelease: "6.8.0-45-generic")
        #expect(info.osVersion == "6.8.0")
    }

    @Test(arguments: [("6.8.0-45-generic", "6.8.0"), ("24.04", "24.04"), ("12", "12"), ("rolling", nil), ("5.", "5")])
    func extractsPlainVersions(text: String, expected: String?) {
        #expect(HostClientInfo.plainVersion(text) == expected)
    }

    @Test(arguments: [
        (["LANG": "de_DE.UTF-8"], "de-DE"), (["LC_ALL": "fr_CA", "LANG": "de_DE"], "fr-CA"), (["LANG": "C.UTF-8"], nil),
        (["LANG": "sr_RS@latin"], "sr-RS"), ([:], nil),
    ])
    func readsTheLocaleFromTheEnvironment(environment: [String: String], expected: String?) {
        #expect(ResolveKitDefaults.environmentLocale(environment) == expected)
    }
}
