// Recorded readings registered on this machine (`manna audio add`): files, not the user's
// words, so they are not exported; `manna listen` plays one that covers a passage.

/// A recording and its cue sheet, as registered.
public struct RegisteredRecording: Equatable, Sendable {
    public let audio: String
    public let cues: String
    public let passage: String
    public let translation: String
    public let reader: String
    public let addedAt: Instant

    public init(audio: String, cues: String, passage: String, translation: String, reader: String, addedAt: Instant) {
        self.audio = audio
        self.cues = cues
        self.passage = passage
        self.translation = translation
        self.reader = reader
        self.addedAt = addedAt
    }
}

/// The recordings registered in the journal, on its connection.
public struct RecordingStore {
    let journal: Journal

    public init(_ journal: Journal) { self.journal = journal }

    /// Registers `recording`, replacing what was registered for the same audio file.
    public func register(_ recording: RegisteredRecording) throws(JournalError) {
        try journal.writing {
            let insert = try journal.database.prepare("""
                INSERT OR REPLACE INTO recordings (audio, cues, passage, translation, reader, added_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """)
            try insert.bind(recording.audio, at: 1)
            try insert.bind(recording.cues, at: 2)
            try insert.bind(recording.passage, at: 3)
            try insert.bind(recording.translation, at: 4)
            try insert.bind(recording.reader, at: 5)
            try insert.bind(recording.addedAt, at: 6)
            try insert.run()
        }
    }

    /// Every registered recording, in the order they were added.
    public func all() throws(JournalError) -> [RegisteredRecording] {
        try journal.reading {
            let statement = try journal.database.prepare("SELECT audio, cues, passage, translation, reader, added_at FROM recordings ORDER BY added_at, audio")
            var recordings: [RegisteredRecording] = []
            while try statement.step() {
                recordings.append(RegisteredRecording(
                    audio: try statement.string("audio"), cues: try statement.string("cues"), passage: try statement.string("passage"),
                    translation: try statement.string("translation"), reader: try statement.string("reader"), addedAt: try statement.int("added_at")))
            }
            return recordings
        }
    }

    /// Forgets the recording of `audio`; false when none was registered.
    @discardableResult
    public func unregister(audio: String) throws(JournalError) -> Bool {
        try journal.writing {
            let delete = try journal.database.prepare("DELETE FROM recordings WHERE audio = ?1")
            try delete.bind(audio, at: 1)
            try delete.run()
            return journal.database.changes > 0
        }
    }
}
