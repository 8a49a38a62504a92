// A desktop notification as Manna means it, and the JSON request that carries it to the
// `manna-notify` helper (docs/ARCHITECTURE.md, "Notifications"): both ends of that protocol
// are in this file, so they cannot drift apart.

/// One desktop notification, in the terms of the Desktop Notifications Specification.
public struct DesktopNotification: Equatable, Sendable {
    /// How urgent the server should treat it: the spec's `urgency` hint.
    public enum Urgency: Int, Sendable {
        case low = 0
        case normal = 1
        case critical = 2
    }

    /// The spec's `category` hint; Manna's own are `x-manna.*`, one for each notification kind
    /// (declared in its file, Schedule/Kinds/).
    public struct Category: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// Plain text, one line: a reference and translation, a prayer's title. Always an
    /// `Excerpt`, set however it is: a title of 100 kB is not a notification of 100 kB.
    public var summary: String {
        get { boundedSummary }
        set { boundedSummary = Excerpt.of(newValue) }
    }
    /// Plain text; the helper escapes it when the server reads markup (after the cut, so
    /// never inside an entity). Always an `Excerpt`, like the summary.
    public var body: String {
        get { boundedBody }
        set { boundedBody = Excerpt.of(newValue) }
    }
    private var boundedSummary: String
    private var boundedBody: String
    public var category: Category
    public var urgency: Urgency
    /// Milliseconds until the server closes it; nil lets the server choose (the spec's -1).
    public var expireTimeout: Int?
    /// A themed icon name. "accessories-dictionary" is in the freedesktop Icon Naming
    /// Specification, so every icon theme draws it (a book in Adwaita and Breeze); a Manna
    /// icon would show as a blank square wherever it is not installed.
    public var icon: String
    /// The `desktop-entry` hint: servers that find `manna.desktop` group and style by it.
    public var desktopEntry: String
    public var appName: String
    /// Buttons, shown by servers with the `actions` capability. A notification with actions
    /// is shown by a helper that stays behind to hear the click (docs/ARCHITECTURE.md, "Actions").
    public var actions: [Action] = []

    /// A button on a notification, and what a click on it runs.
    public struct Action: Equatable, Sendable {
        /// The spec's action key, sent back in `ActionInvoked`.
        public let key: String
        public let label: String
        /// A program by absolute path and its arguments, run without a shell.
        public let command: [String]

        public init(key: String, label: String, command: [String]) {
            self.key = key
            self.label = label
            self.command = command
        }
    }

    public init(summary: String, body: String, category: Category, urgency: Urgency = .normal,
                expireTimeout: Int? = nil, icon: String = "accessories-dictionary",
                desktopEntry: String = "manna", appName: String = "Manna") {
        self.boundedSummary = Excerpt.of(summary)
        self.boundedBody = Excerpt.of(body)
        self.category = category
        self.urgency = urgency
        self.expireTimeout = expireTimeout
        self.icon = icon
        self.desktopEntry = desktopEntry
        self.appName = appName
    }
}

// MARK: Text as the server shows it

extension DesktopNotification {
    /// The summary as sent: the spec says it is never markup, so it is only made one line
    /// and cleared of control characters.
    public static func summaryText(_ summary: String) -> String {
        withoutControlCharacters(summary, keepingNewlines: false)
    }

    /// The body as sent: control characters removed (line breaks kept), and when the server
    /// reads markup (`body-markup` capability), `&`, `<` and `>` escaped so text shows as written.
    public static func bodyText(_ body: String, serverReadsMarkup: Bool) -> String {
        let plain = withoutControlCharacters(body, keepingNewlines: true)
        return serverReadsMarkup ? Markup.escaped(plain) : plain
    }

    /// Drops C0 and C1 control characters (a NUL cannot even cross D-Bus) and the bidi
    /// embeddings, overrides and isolates. A tab becomes a space; a line break stays when
    /// `keepingNewlines`, else becomes a space; CR is dropped, so CRLF text keeps one break.
    public static func withoutControlCharacters(_ text: String, keepingNewlines: Bool) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out.append(keepingNewlines ? "\n" : " ")
            case "\t": out.append(" ")
            default:
                if !String.isTerminalControl(scalar) { out.append(scalar) }
            }
        }
        return String(out)
    }
}

// MARK: The helper's request

/// Why a request given to `manna-notify` cannot be used.
public struct NotificationRequestError: Error, Equatable, Sendable {
    public let problem: String
    public var message: String { "bad request on stdin: \(problem)" }

    public init(problem: String) { self.problem = problem }
}

extension DesktopNotification {
    /// The request `manna-notify` reads on stdin: one JSON object,
    /// `{"app_name", "summary", "body", "icon", "category", "desktop_entry", "urgency" (0-2),
    /// "expire_timeout" (milliseconds, -1 for the server's default)}`, and when there are
    /// actions, `"actions": [{"key", "label", "command": [PATH, ARGUMENT...]}]`.
    public var request: JSON {
        var fields: [(String, JSON)] = [
            ("app_name", .string(appName)),
            ("summary", .string(summary)),
            ("body", .string(body)),
            ("icon", .string(icon)),
            ("category", .string(category.rawValue)),
            ("desktop_entry", .string(desktopEntry)),
            ("urgency", .int(urgency.rawValue)),
            ("expire_timeout", .int(expireTimeout ?? -1)),
        ]
        if !actions.isEmpty {
            fields.append(("actions", .array(actions.map { action in
                .object([("key", .string(action.key)), ("label", .string(action.label)),
                         ("command", .array(action.command.map(JSON.string)))])
            })))
        }
        return .object(fields)
    }

    /// Reads a request written by `request`; every key is required but "actions", unknown keys
    /// are ignored.
    public init(request text: String) throws(NotificationRequestError) {
        let json: JSON
        do { json = try JSON(parsing: text) } catch { throw NotificationRequestError(problem: error.message) }
        func string(_ key: String) throws(NotificationRequestError) -> String {
            guard let value = json[key]?.stringValue else { throw NotificationRequestError(problem: "no string \"\(key)\"") }
            return value
        }
        guard let urgencyNumber = json["urgency"]?.intValue, let urgency = Urgency(rawValue: urgencyNumber) else {
            throw NotificationRequestError(problem: "\"urgency\" must be 0, 1 or 2")
        }
        guard let timeout = json["expire_timeout"]?.intValue, timeout >= -1, timeout <= Int(Int32.max) else {
            throw NotificationRequestError(problem: "\"expire_timeout\" must be milliseconds, or -1")
        }
        self.init(summary: try string("summary"), body: try string("body"),
                  category: Category(rawValue: try string("category")), urgency: urgency,
                  expireTimeout: timeout == -1 ? nil : timeout, icon: try string("icon"),
                  desktopEntry: try string("desktop_entry"), appName: try string("app_name"))
        for item in json["actions"]?.arrayValue ?? [] {
            guard let key = item["key"]?.stringValue, !key.isEmpty, let label = item["label"]?.stringValue,
                  let command = item["command"]?.arrayValue?.compactMap(\.stringValue),
                  command.count == item["command"]?.arrayValue?.count, command.first?.hasPrefix("/") == true else {
                throw NotificationRequestError(problem: "each action needs a \"key\", a \"label\" and a \"command\" that starts with an absolute path")
            }
            actions.append(Action(key: key, label: label, command: command))
        }
    }
}

/// What `manna-notify --probe` prints: the server's `GetServerInformation` and
/// `GetCapabilities` answers, as one JSON line.
public struct NotificationServer: Equatable, Sendable {
    public let name: String
    public let vendor: String
    public let version: String
    public let specVersion: String
    public let capabilities: [String]

    public init(name: String, vendor: String, version: String, specVersion: String, capabilities: [String]) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
        self.capabilities = capabilities
    }

    /// `{"name", "vendor", "version", "spec_version", "capabilities": [...]}`.
    public var json: JSON {
        .object([
            ("name", .string(name)),
            ("vendor", .string(vendor)),
            ("version", .string(version)),
            ("spec_version", .string(specVersion)),
            ("capabilities", .array(capabilities.map(JSON.string))),
        ])
    }
}
