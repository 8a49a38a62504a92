// The in-process search benchmark (bench/run): each query of bench/queries.tsv against one open
// text database, timed alone, many times; prints p50 and p99 per kind and overall, in ms.
//
//   manna-bench TEXT_DB QUERIES_TSV [ROUNDS]
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

func milliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let text = try? Files.readText(arguments[2]) else {
    print("usage: manna-bench TEXT_DB QUERIES_TSV [ROUNDS]")
    exit(64)
}
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20
let database = try TextDatabase(path: arguments[1])
var timings: [String: [Double]] = [:]
var all: [Double] = []
for line in text.split(separator: "\n").dropFirst() {
    let fields = line.split(separator: "\t").map(String.init)
    let translation = try database.translation(code: fields[0])
    let query = try SearchQuery(parsing: fields[2])
    _ = try database.search(query, in: translation, limit: 20)  // warm
    for _ in 0..<rounds {
        let start = milliseconds()
        _ = try database.search(query, in: translation, limit: 20)
        let elapsed = milliseconds() - start
        timings[fields[1], default: []].append(elapsed)
        all.append(elapsed)
    }
}
func format(_ value: Double) -> String { String((value * 1000).rounded() / 1000) }

print("kind\tsearches\tp50_ms\tp99_ms")
for kind in timings.keys.sorted() + ["all"] {
    let values = kind == "all" ? all : timings[kind]!
    print("\(kind)\t\(values.count)\t\(format(percentile(values, 0.5)))\t\(format(percentile(values, 0.99)))")
}
