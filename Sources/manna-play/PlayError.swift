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
    /// Audio that cannot be decoded (65).
    case badAudio(String)

    var status: Int32 {
        switch self {
        case .usage: 64
        case .unavailable: 69
        case .unknownVoice, .badAudio: 65
        case .io: 74
        }
    }

    var message: String {
        switch self {
        case .usage(let problem), .unavailable(let problem), .io(let problem), .badAudio(let problem): problem
        case .unknownVoice(let voice, let installed):
            // The same language's voices, if any: the full list (131 with espeak-ng-data) is --voices'.
            unknownVoiceMessage(voice, installed: installed)
        }
    }
}

/// "no voice 'en-xx' is installed; for en: en-029, en-gb, en-us (all 131: manna listen --voices)".
func unknownVoiceMessage(_ voice: String, installed: [String]) -> String {
    let language = voice.lowercased().split(separator: "-").first.map(String.init) ?? ""
    let similar = Array(Set(installed.filter { $0.lowercased() == language || $0.lowercased().hasPrefix(language + "-") })).sorted()
    let all = "all \(Set(installed).count) installed: 'manna listen --voices'"
    return "no voice '\(voice)' is installed; " + (similar.isEmpty ? all : "for \(language): " + similar.joined(separator: ", ") + " (\(all))")
}
