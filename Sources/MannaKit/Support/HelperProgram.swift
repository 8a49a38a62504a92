// The programs `manna` runs for what a static executable does not link: D-Bus and libnotify
// (manna-notify), sound and speech (manna-play). See docs/ARCHITECTURE.md, "Layers".

public enum HelperProgram: String, CaseIterable, Sendable {
    case notify = "manna-notify"
    case play = "manna-play"

    /// Where it is looked for, in order: beside `program` (a build folder, or a package's
    /// bin/), then where an installed manna's helpers are (`<bin>/../libexec/manna/`).
    public func candidates(besideProgram program: String) -> [String] {
        let bin = Files.parent(of: program)
        return [bin + "/" + rawValue, Files.parent(of: bin) + "/libexec/manna/" + rawValue]
    }

    /// The first candidate that is an executable file.
    public func find(besideProgram program: String) -> String? {
        candidates(besideProgram: program).first(where: Files.isExecutable)
    }
}
