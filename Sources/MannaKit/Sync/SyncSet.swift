/// A field that syncs as a set: a prayer's tags. Each member is a synced field of its own,
/// `tags#family`, 1 while the member is in and 0 once it is out, and keeps its greatest
/// version as any field does; so a tag added on one device and another added or removed on
/// another, apart, all hold, where the later edit's whole list would win.
///
/// A whole list (the field itself, `tags` = `,a,b,`: what Manna wrote before sync schema 14, and
/// what a conflict copy is made with) sets every member it names in, and every other out, at
/// its version; a member's own version after it decides that member.
enum SyncSet {
    /// Between a field's name and a member's in a member's field name: never in a tag.
    static let separator: Character = "#"

    static func memberField(_ field: String, _ member: String) -> String { field + String(separator) + member }

    /// The set field and the member that `name` (a change's field) names in `table`, if it names one.
    static func member(_ name: String, in table: ExportTable) -> (field: Field, member: String)? {
        guard let cut = name.firstIndex(of: separator),
              let field = table.syncFields.first(where: { $0.mergesAsSet && $0.name == name[..<cut] }) else { return nil }
        return (field, String(name[name.index(after: cut)...]))
    }

    /// The members `fields` (a record's synced fields) hold for `field`: nil when nothing of it
    /// is known (the record's creation has not arrived).
    static func members(of field: Field, in fields: [String: (value: Cell, version: SyncVersion)]) -> Set<String>? {
        let whole = fields[field.name]
        let prefix = field.name + String(separator)
        let own = fields.filter { $0.key.hasPrefix(prefix) }
        guard whole != nil || !own.isEmpty else { return nil }
        var members = whole.map { self.members($0.value) } ?? []
        for (name, member) in own where whole.map({ $0.version < member.version }) ?? true {
            let tag = String(name.dropFirst(prefix.count))
            if member.value == .int(1) { members.insert(tag) } else { members.remove(tag) }
        }
        return members
    }

    /// Whether `cell` is a list as the journal stores one, in any order: `,a,b,`, or empty.
    static func isList(_ cell: Cell) -> Bool {
        guard let text = cell.text else { return false }
        let parts = text.split(separator: ",")
        return text == (parts.isEmpty ? "" : "," + parts.joined(separator: ",") + ",")
    }

    /// The members a stored list (`,a,b,`) names.
    static func members(_ cell: Cell) -> Set<String> { Set((cell.text ?? "").split(separator: ",").map(String.init)) }

    /// The column for `members`: the first of `candidates` (the record as it is here, the whole
    /// list) that names them, as it is, so that a list is not reordered by a merge that did not
    /// change it; else the members in the order the journal writes them.
    static func cell(_ members: Set<String>, keeping candidates: [Cell?]) -> Cell {
        if let kept = candidates.lazy.compactMap({ $0 }).first(where: { self.members($0) == members }) { return kept }
        return .text(Journal.tagsColumn(Array(members)))
    }
}
