extension PageMap {
    /// Reads the map text format: one row per line, cells separated by white space, `.` a hole, any other cell a
    /// page name. Blank lines and lines whose first visible character is `#` are ignored; rows may differ in
    /// length (missing cells are holes). Throws with line numbers when there are no rows or no pages.
    public init(parsing text: String) throws(PageMapError) {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        // Line by line, without an array of every line: memory follows the cells, not the file's line count.
        var rows: [[String?]] = []
        var rowLines: [Int] = []
        var lineCount = 0
        var rest = body[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(where: \.isNewline) ?? rest.endIndex
            let line = rest[..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
            lineCount += 1
            let cells = line.split(whereSeparator: \.isWhitespace)
            guard let first = cells.first, !first.hasPrefix("#") else { continue }
            rows.append(cells.map { $0 == "." ? nil : String($0) })
            rowLines.append(lineCount)
        }
        try self.init(rows: rows, rowLines: rowLines, lineCount: lineCount)
    }
}
