// Where listening stopped: one place, rewritten as each verse is heard, so `manna listen` with
// no passage resumes there after a quit, a Ctrl-C or a kill.

/// The verse listening reached, in a passage.
public struct ListeningPosition: Equatable, Sendable {
    public let passage: String
    public let translation: String
    public let verse: VerseID
    public let voice: String?
    public let rate: Int?
    /// The recording listened to, and its cue sheet (absolute paths); nil for speech.
    public let audio: String?
    public let cues: String?
    public let updatedAt: Instant

    public init(passage: String, translation: String, verse: VerseID, voice: String?, rate: Int?, audio: String? = nil, cues: String? = nil,
                updatedAt: Instant) {
        self.passage = passage
        self.translation = translation
        self.verse = verse
        self.voice = voice
        self.rate = rate
        self.audio = audio
        self.cues = cues
        self.updatedAt = updatedAt
    }
}

/// The journal's record of where listening stopped, on its connection.
public struct ListeningStore {
    let journal: Journal

    public init(_ journal: Journal) { self.journal = journal }

    /// Records `position` as where to resume.
    public func save(_ position: ListeningPosition) throws(JournalError) {
        try journal.writing {
            try journal.database.withCachedStatement("""
                INSERT OR REPLACE INTO listening (name, passage, translation, verse_id, voice, rate, updated_at, audio, cues)
                VALUES ('resume', ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """) { statement in
                try statement.bind(position.passage, at: 1)
                try statement.bind(position.translation, at: 2)
                try statement.bind(position.verse.rawValue, at: 3)
                try statement.bind(position.voice, at: 4)
                if let rate = position.rate { try statement.bind(rate, at: 5) } else { try statement.bindNull(at: 5) }
                try statement.bind(position.updatedAt, at: 6)
                try statement.bind(position.audio, at: 7)
                try statement.bind(position.cues, at: 8)
                try statement.run()
            }
        }
    }

    /// Where to resume, if listening stopped before a passage's end.
    public func position() throws(JournalError) -> ListeningPosition? {
        try journal.reading {
            let statement = try journal.database.prepare("""
                SELECT passage, translation, verse_id, voice, rate, audio, cues, updated_at FROM listening WHERE name = 'resume'
                """)
            guard try statement.step() else { return nil }
            return ListeningPosition(
                passage: try statement.string("passage"), translation: try statement.string("translation"),
                verse: VerseID(rawValue: try statement.int("verse_id")), voice: try statement.optionalString("voice"),
                rate: try statement.optionalInt("rate"), audio: try statement.optionalString("audio"),
                cues: try statement.optionalString("cues"), updatedAt: try statement.int("updated_at"))
        }
    }

    /// Forgets the position: the passage was heard to its end.
    public func clear() throws(JournalError) {
        try journal.writing { try journal.database.execute("DELETE FROM listening WHERE name = 'resume'") }
    }
}
