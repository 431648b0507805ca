extension PageMap {
    /// Reads the map text format: one row per line, cells separated by white space, `.` a hole, any other cell a
    /// page name. Blank lines and lines whose first visible character is `#` are ignored; rows may differ in
    /// length (missing cells are holes). Throws with line numbers when there are no rows or no pages.
    public init(parsing text: String) throws(PageMapError) {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        var lines = body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if lines.last?.isEmpty == true { lines.removeLast() }
        var rows: [[String?]] = []
        var rowLines: [Int] = []
        for (index, line) in lines.enumerated() {
            let cells = line.split(whereSeparator: \.isWhitespace)
            guard let first = cells.first, !first.hasPrefix("#") else { continue }
            rows.append(cells.map { $0 == "." ? nil : String($0) })
            rowLines.append(index + 1)
        }
        try self.init(rows: rows, rowLines: rowLines, lineCount: lines.count)
    }
}
