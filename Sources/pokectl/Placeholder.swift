@main struct Pokectl { static func main() {} }
