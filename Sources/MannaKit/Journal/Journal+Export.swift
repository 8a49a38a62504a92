// manna export: everything the user made, tombstones included, as one JSON document.

extension Journal {
    /// The export document (docs/export-format.md), read in one transaction so that it is one
    /// moment's data. Records come in a fixed order, so equal journals give equal files.
    public func export() throws(JournalError) -> JSON {
        do {
            return try run { try database.readTransaction {
                var document = Journal.exportHeader
                for table in ExportTable.all {
                    document.append((table.name, .array(try rows(of: table).map { Journal.record(table, $0) })))
                }
                return .object(document)
            } }
        } catch {
            throw error as? JournalError ?? .unwritable(path: path, reason: "\(error)")
        }
    }

    /// The export of a journal that does not exist yet: every table empty.
    public static var emptyExport: JSON {
        .object(exportHeader + ExportTable.all.map { ($0.name, .array([])) })
    }

    private static var exportHeader: [(String, JSON)] {
        [("format", .string(ExportFormat.name)), ("version", .int(ExportFormat.version))]
    }

    /// Every row of `table`, in export order.
    func rows(of table: ExportTable) throws(SQLiteError) -> [[Cell]] {
        let statement = try database.prepare("SELECT \(table.columns) FROM \(table.name) ORDER BY \(table.order)")
        var rows: [[Cell]] = []
        while try statement.step() { rows.append(try Journal.cells(statement, table: table)) }
        return rows
    }

    /// The stored fields of the current row, in `storedFields` order.
    static func cells(_ statement: Statement, table: ExportTable) throws(SQLiteError) -> [Cell] {
        try table.storedFields.map { field throws(SQLiteError) in
            switch field.kind {
            case .instant, .optionalInstant, .count, .verseID:
                return try statement.optionalInt(field.name).map(Cell.int) ?? .null
            default:
                return try statement.optionalString(field.name).map(Cell.text) ?? .null
            }
        }
    }

    /// One record as the export writes it: every field, in the table's order.
    static func record(_ table: ExportTable, _ row: [Cell]) -> JSON {
        .object(table.fields.map { field in
            let cell = table.index(field.name).map { row[$0] } ?? .null
            return (field.name, ExportFormat.json(field, cell: field.stored ? cell : .null, row: row, table: table))
        })
    }
}
