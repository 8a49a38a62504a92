// swift-tools-version:6.0
import Foundation
import PackageDescription

// MANNA_DYNAMIC=1 links `manna` dynamically in release builds too: a release build of the tests
// (tools/sync-converge) links the executable's code into the test bundle, which cannot be static.
// The static `manna` is linked by the toolchain's lld: gold prints glibc's warning that dlopen in
// a static program needs the same glibc at run time, for two calls manna never makes (SQLite's
// load_extension, and the Swift runtime's prespecialization library, looked for only when a
// SWIFT_DEBUG_ variable asks) and that no flag of gold's silences. Same code, same start-up.
let staticManna: [LinkerSetting] =
    ProcessInfo.processInfo.environment["MANNA_DYNAMIC"] == nil ? [.unsafeFlags(["-static-executable", "-use-ld=lld"], .when(configuration: .release))] : []

// GLib's pkg-config files (gio-2.0, and libnotify through it) add -pthread, a no-op since
// glibc 2.34 put libpthread into libc, which SwiftPM refuses with a warning on every build. So
// CGio and CLibnotify have no pkgConfig: their module maps name the libraries, and the two
// programs that import them get only the header folders pkg-config gives (-I flags, nothing else).
func headerFolders(_ packages: String...) -> [SwiftSetting] {
    let pkgConfig = Process()
    pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    pkgConfig.arguments = ["pkg-config", "--cflags-only-I"] + packages
    let output = Pipe()
    pkgConfig.standardOutput = output
    guard (try? pkgConfig.run()) != nil else { return [] }
    let flags = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    pkgConfig.waitUntilExit()
    return [.unsafeFlags(flags.split(whereSeparator: \.isWhitespace).flatMap { ["-Xcc", String($0)] })]
}

let package = Package(
    name: "Manna",
    products: [
        .executable(name: "manna", targets: ["manna"]),
        .executable(name: "manna-notify", targets: ["manna-notify"]),
        .executable(name: "manna-play", targets: ["manna-play"]),
        .executable(name: "manna-reader", targets: ["manna-reader"]),
        .library(name: "MannaKit", targets: ["MannaKit"]),
        .library(name: "MannaApp", targets: ["MannaApp"]),
    ],
    targets: [
        // C libraries from Debian, each a module map and a one-line shim.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibnotify", providers: [.apt(["libnotify-dev"])]),
        .systemLibrary(name: "CEspeak", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        // No pkgConfig: libpulse.pc adds only -D_REENTRANT and -pthread (no-ops with glibc 2.34's
        // one libc), which SwiftPM refuses with a warning on every build; its headers are in
        // /usr/include and the module map links -lpulse.
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // glibc's gettext (libintl.h), which the Glibc module does not export; part of libc.
        .systemLibrary(name: "CGettext"),
        .systemLibrary(name: "CGio", providers: [.apt(["libglib2.0-dev"])]),
        // GTK 4 and libadwaita, for manna-reader only; no pkgConfig for the reason CGio has none.
        .systemLibrary(name: "CAdw", providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]),
        // sherpa-onnx's C API for natural voices: its structs only; manna-play loads the
        // library with dlopen when it is installed (tools/get-voice), and works without it.
        .systemLibrary(name: "CSherpa"),

        // The GNOME Shell extension's files, compiled in for `manna install` to write: the
        // JavaScript stays in widgets/gnome-shell/, its only copy (docs/ARCHITECTURE.md).
        .target(
            name: "GnomeShellExtension", path: "widgets/gnome-shell",
            exclude: ["tests"],
            sources: ["GnomeShellExtension.swift"],
            resources: ["metadata.json", "extension.js", "indicator.js", "timeline.js", "stylesheet.css"].map {
                .embedInCode("manna@manna.invalid/" + $0)
            } + [.embedInCode("gnome45/extension45.js")]),

        // Everything Manna knows, independent of the command line. Only Storage/ imports CSQLite,
        // only Support/Gzip CZlib (sync snapshots), only Support/Messages CGettext; nothing imports CLibnotify but
        // manna-notify, nor the audio libraries but manna-play.
        .target(name: "MannaKit", dependencies: ["CSQLite", "CZlib", "CGettext", "GnomeShellExtension"]),

        // The application layer: the command line, one file per subcommand, and the use cases
        // (the tick) behind an injected Context (clock, notifier, output, environment).
        .target(name: "MannaApp", dependencies: ["MannaKit"]),

        // The `manna` executable: main.swift builds the live Context and runs MannaApp.
        // Release builds (`--static-swift-stdlib`) link without PIE: start-up is most of
        // what a `manna prompt` or `manna read` costs (see docs/ARCHITECTURE.md, "Start-up").
        .executableTarget(
            name: "manna", dependencies: ["MannaApp", "MannaKit"],
            linkerSettings: staticManna),

        // The notification helper `manna` runs: the only code that links libnotify, GLib and
        // D-Bus, so it is dynamic and off the hot path (docs/ARCHITECTURE.md, "Notifications").
        .executableTarget(
            name: "manna-notify", dependencies: ["MannaKit", "CLibnotify"],
            swiftSettings: headerFolders("libnotify")),

        // The player `manna listen` runs: the only code that links espeak-ng, libpulse,
        // libsndfile, libsoxr and GIO's D-Bus (the media controls; docs/ARCHITECTURE.md, "Listening").
        .executableTarget(
            name: "manna-play", dependencies: ["MannaKit", "CEspeak", "CSherpa", "CPulse", "CSndfile", "CSoxr", "CGio"],
            swiftSettings: headerFolders("gio-2.0")),

        // The reader window: the only code that links GTK 4 and libadwaita (CAdw); MannaKit and
        // MannaApp in process for everything it shows (docs/ARCHITECTURE.md, "The reader window").
        .executableTarget(
            name: "manna-reader", dependencies: ["MannaApp", "MannaKit", "CAdw"],
            swiftSettings: headerFolders("libadwaita-1")),

        // The in-process search benchmark that bench/run runs (not installed).
        .executableTarget(name: "manna-bench", dependencies: ["MannaKit"]),

        // The text database the test targets share, built once per test run.
        .target(name: "TestSupport", dependencies: ["MannaKit"], path: "Tests/TestSupport"),
        .testTarget(name: "MannaKitTests", dependencies: ["MannaKit", "GnomeShellExtension", "TestSupport"], resources: [.copy("Fixtures")]),
        // The commands and the tick in-process: a temporary home, a fixed clock, captured
        // output and a recording notifier; no bus, no root, milliseconds each.
        .testTarget(name: "MannaAppTests", dependencies: ["MannaApp", "MannaKit", "TestSupport"], exclude: ["Fixtures"]),
        // The player's parts in-process (its speech engines, outputs and pipeline), through
        // stand-ins that conform to the same protocols: no sound server, no bus.
        .testTarget(name: "MannaPlayTests", dependencies: ["manna-play", "MannaKit", "TestSupport"],
                    swiftSettings: headerFolders("gio-2.0")),
        // Runs the built `manna` binary as users do: output, exit codes, error text.
        .testTarget(name: "EndToEndTests", dependencies: ["manna", "manna-notify", "manna-play", "manna-reader", "TestSupport"], exclude: ["Golden"]),
    ]
)
