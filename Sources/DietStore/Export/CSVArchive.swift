import Foundation

extension AppDatabase {
    /// The CSV files of `export(to:)` — one per table, RFC 4180, documented columns — in one
    /// zip (stored, uncompressed: CSV opens directly in a spreadsheet after unpacking), for a
    /// browser's single download. Records `data_exported` with the format `csv`.
    public func exportCSVArchive(timeZone: TimeZone) throws -> Data {
        let export = try exportData()
        var archive = ZipArchiveWriter()
        for table in DataExport.tables {
            let columns = try reader.read { db in try db.columns(in: table).map(\.name) }
            archive.add(
                "\(table).csv",
                Data(CSV.render(columns: columns, rows: export.tables[table] ?? []).utf8),
                modified: clock.now()
            )
        }
        try record(.dataExported(format: "csv"), timeZone: timeZone)
        return archive.finish()
    }
}

/// A zip file of stored entries (PKWARE APPNOTE.TXT: local file headers, 4.3.7; the central
/// directory, 4.3.12; its end record, 4.3.16), enough for a few small files.
struct ZipArchiveWriter {
    private var body = Data()
    private var directory = Data()
    private var count = 0

    mutating func add(_ name: String, _ data: Data, modified: Date) {
        let crc = CRC32.checksum(data)
        let nameBytes = Data(name.utf8)
        let (time, date) = Self.dosTime(modified)
        var local = Data()
        local.append(le32: 0x0403_4b50)
        local.append(le16: 20)
        local.append(le16: 0x0800)
        local.append(le16: 0)  // version, UTF-8 names, stored
        local.append(le16: time)
        local.append(le16: date)
        local.append(le32: crc)
        local.append(le32: UInt32(data.count))
        local.append(le32: UInt32(data.count))
        local.append(le16: UInt16(nameBytes.count))
        local.append(le16: 0)
        var central = Data()
        central.append(le32: 0x0201_4b50)
        central.append(le16: 20)
        central.append(le16: 20)
        central.append(le16: 0x0800)
        central.append(le16: 0)
        central.append(le16: time)
        central.append(le16: date)
        central.append(le32: crc)
        central.append(le32: UInt32(data.count))
        central.append(le32: UInt32(data.count))
        central.append(le16: UInt16(nameBytes.count))
        central.append(le16: 0)
        central.append(le16: 0)
        central.append(le16: 0)
        central.append(le16: 0)
        central.append(le32: 0o100600 << 16)
        central.append(le32: UInt32(body.count))
        central.append(nameBytes)
        body.append(local)
        body.append(nameBytes)
        body.append(data)
        directory.append(central)
        count += 1
    }

    func finish() -> Data {
        var end = Data()
        end.append(le32: 0x0605_4b50)
        end.append(le16: 0)
        end.append(le16: 0)
        end.append(le16: UInt16(count))
        end.append(le16: UInt16(count))
        end.append(le32: UInt32(directory.count))
        end.append(le32: UInt32(body.count))
        end.append(le16: 0)
        return body + directory + end
    }

    /// MS-DOS time and date fields (UTC; two-second steps).
    static func dosTime(_ instant: Date) -> (UInt16, UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        let time = (parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2
        let date = max(0, (parts.year ?? 1980) - 1980) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1)
        return (UInt16(truncatingIfNeeded: time), UInt16(truncatingIfNeeded: date))
    }
}

/// CRC-32 (ISO 3309, the polynomial zip uses).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Data {
    mutating func append(le16 value: UInt16) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
    mutating func append(le32 value: UInt32) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
}
