// Reading plans: the shipped ones (in the text database) and the user's own JSON files,
// read and checked the same way. Format: curated/plans/README.md.

/// Why a plan file cannot be used: the file, the field, and what is wrong.
public struct PlanError: Error, Equatable, Sendable {
    public let file: String
    public let field: String
    public let problem: String

    public var message: String { "\(file): \(field.isEmpty ? "" : "field `\(field)`: ")\(problem)" }
}

/// A reading plan: day N's readings, for N = 1...days.count.
public struct Plan: Sendable, Equatable {
    public let id: String
    public let name: String
    public let description: String
    /// `days[n - 1]` is what day n reads.
    public let days: [[Reference]]

    /// Reads a plan file, checking every field.
    public init(json text: String, file: String) throws(PlanError) {
        func fail(_ field: String, _ problem: String) -> PlanError { PlanError(file: file, field: field, problem: problem) }
        let root: JSON
        do { root = try JSON(parsing: text) } catch { throw fail("", error.message) }
        guard case .object = root else { throw fail("", "a plan is a JSON object") }
        guard root["format"]?.intValue == 1 else { throw fail("format", "must be 1") }
        guard let id = root["id"]?.stringValue, Plan.isValidID(id) else {
            throw fail("id", "must be 1 to 64 lowercase letters, digits or '-'")
        }
        guard let name = root["name"]?.stringValue, !name.isEmpty else { throw fail("name", "must be a non-empty string") }
        guard let description = root["description"]?.stringValue else { throw fail("description", "must be a string") }
        guard let days = root["days"]?.arrayValue, !days.isEmpty else { throw fail("days", "must be a non-empty list") }
        var parsed: [[Reference]] = []
        for (index, day) in days.enumerated() {
            let field = "days[\(index)]"
            guard day["day"]?.intValue == index + 1 else { throw fail(field + ".day", "must be \(index + 1): days are numbered 1, 2, … without a gap") }
            guard let readings = day["readings"]?.arrayValue, !readings.isEmpty else {
                throw fail(field + ".readings", "must be a non-empty list of references")
            }
            var references: [Reference] = []
            for (readingIndex, reading) in readings.enumerated() {
                let readingField = field + ".readings[\(readingIndex)]"
                guard let text = reading.stringValue else { throw fail(readingField, "must be a reference string") }
                do { references.append(try Reference(parsing: text)) } catch { throw fail(readingField, error.message) }
            }
            parsed.append(references)
        }
        self.id = id
        // A user's plan file is user text: its name reaches terminals and notifications.
        self.name = name.singleLine
        self.description = description
        self.days = parsed
    }

    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }
}

/// The plans a user can choose: shipped ones, and their own, which replace a shipped plan
/// with the same id.
public struct PlanLibrary {
    let database: TextDatabase
    let userDirectory: String

    /// The shipped plans are in the text database; the user's are `userDirectory/<id>.json`
    /// (`$XDG_CONFIG_HOME/manna/plans`), and replace a shipped plan with the same id.
    public init(database: TextDatabase, userDirectory: String) {
        self.database = database
        self.userDirectory = userDirectory
    }

    /// Every plan, and the user plan files that could not be read (each with its reason).
    /// Parses them all: for `plan list`, not for a tick.
    public func all() throws(TextDatabaseError) -> (plans: [Plan], problems: [PlanError]) {
        var byID: [String: Plan] = [:]
        for (id, json) in try database.shippedPlans() {
            byID[id] = try shipped(id: id, json: json)
        }
        var problems: [PlanError] = []
        for name in Files.list(userDirectory).filter({ $0.hasSuffix(".json") }).sorted() {
            switch PlanLibrary.loadUserPlan(userDirectory + "/" + name, fileName: name) {
            case .success(let plan): byID[plan.id] = plan
            case .failure(let problem): problems.append(problem)
            }
        }
        return (byID.values.sorted { $0.id < $1.id }, problems)
    }

    /// The plan with this id, reading only its own file or row.
    public func plan(id: String) throws(TextDatabaseError) -> Result<Plan, PlanError>? {
        guard Plan.isValidID(id) else { return nil }
        let userFile = userDirectory + "/" + id + ".json"
        if Files.exists(userFile) { return PlanLibrary.loadUserPlan(userFile, fileName: id + ".json") }
        guard let json = try database.shippedPlan(id: id) else { return nil }
        return .success(try shipped(id: id, json: json))
    }

    private func shipped(id: String, json: String) throws(TextDatabaseError) -> Plan {
        do { return try Plan(json: json, file: "\(database.path) (plan \(id))") } catch { throw .damaged(path: database.path) }
    }

    private static func loadUserPlan(_ path: String, fileName: String) -> Result<Plan, PlanError> {
        let text: String
        do { text = try Files.readText(path) ?? "" } catch { return .failure(PlanError(file: path, field: "", problem: error.reason)) }
        let plan: Plan
        do { plan = try Plan(json: text, file: path) } catch { return .failure(error) }
        guard fileName == plan.id + ".json" else {
            return .failure(PlanError(file: path, field: "id", problem: "must match the file name (\(plan.id).json)"))
        }
        return .success(plan)
    }
}

extension TextDatabase {
    /// One shipped plan's JSON text, or nil.
    func shippedPlan(id: String) throws(TextDatabaseError) -> String? {
        do {
            let statement = try database.prepare("SELECT json FROM plans WHERE id = ?1")
            try statement.bind(id, at: 1)
            return try statement.step() ? statement.string(0) : nil
        } catch {
            throw .damaged(path: path)
        }
    }

    /// The shipped plans as (id, JSON text).
    func shippedPlans() throws(TextDatabaseError) -> [(String, String)] {
        do {
            let statement = try database.prepare("SELECT id, json FROM plans ORDER BY id")
            var plans: [(String, String)] = []
            while try statement.step() { plans.append((statement.string(0), statement.string(1))) }
            return plans
        } catch {
            throw .damaged(path: path)
        }
    }
}
