// Why the player stops: a sysexits status and one line, which `manna` prints as its own.

enum PlayError: Error {
    /// Bad arguments or request: a bug in the caller (64).
    case usage(String)
    /// No sound server, no speech engine (69).
    case unavailable(String)
    /// `--voice` names no installed voice (65).
    case unknownVoice(String, installed: [String])
    /// The export file cannot be written (74).
    case io(String)

    var status: Int32 {
        switch self {
        case .usage: 64
        case .unavailable: 69
        case .unknownVoice: 65
        case .io: 74
        }
    }

    var message: String {
        switch self {
        case .usage(let problem), .unavailable(let problem), .io(let problem): problem
        case .unknownVoice(let voice, let installed):
            "no voice '\(voice)' is installed; the installed ones are " + installed.joined(separator: ", ")
                + " ('manna listen --voices' names them)"
        }
    }
}
