extension Pager {
    /// Checks the pager's laws in debug builds: the current position holds a page; the resident set is the
    /// current page plus neighbours only, at most three, in page order.
    func checkInvariants() {
        #if DEBUG
            precondition(layout.holdsPage(position), "pager at \(position), which holds no page")
            precondition(resident.count <= 3, "\(resident.count) pages resident")
            precondition(resident.contains(position), "current page \(position) not resident")
            let allowed = Set(layout.neighbours(of: position) + [position])
            precondition(resident.allSatisfy(allowed.contains), "resident \(resident) outside the neighbours")
            precondition(resident == resident.sorted(), "resident set not in page order")
        #endif
    }
}
