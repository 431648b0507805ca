// Placeholder replaced by the decoder fuzz harness.
@main
enum FuzzMain {
    static func main() {}
}
