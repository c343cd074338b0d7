import Locking
import Synchronization

/// Request counters and latency histograms, rendered in the Prometheus text format.
///
/// Each event loop records into its own shard (an uncontended lock); a scrape merges them.
public final class HTTPMetrics: Sendable {
    /// Upper bounds of the latency histogram buckets, in seconds.
    public static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Key: Hashable { var route: String; var status: Int }

    struct Histogram {
        var counts = [UInt64](repeating: 0, count: HTTPMetrics.buckets.count + 1)
        var sum: Double = 0
        var count: UInt64 = 0

        mutating func observe(_ seconds: Double) {
            var i = 0
            while i < HTTPMetrics.buckets.count, seconds > HTTPMetrics.buckets[i] { i += 1 }
            counts[i] += 1
            sum += seconds
            count += 1
        }

        mutating func merge(_ other: Histogram) {
            for i in counts.indices { counts[i] += other.counts[i] }
            sum += other.sum
            count += other.count
        }
    }

    /// One route's answers: a count per status (a handful, kept in a small list) and its latency.
    struct RouteStats {
        var statuses: [(status: Int, count: UInt64)] = []
        var latency = Histogram()

        mutating func record(status: Int, seconds: Double) {
            if let index = statuses.firstIndex(where: { $0.status == status }) {
                statuses[index].count += 1
            } else {
                statuses.append((status, 1))
            }
            latency.observe(seconds)
        }
    }

    /// By route: one hash of the route's name per request.
    struct Shard {
        var routes: [String: RouteStats] = [:]
    }

    final class ShardBox: Sendable { let lock = Lock(Shard()) }

    private let shards: [ShardBox]
    let openConnections = Atomic<Int>(0)
    let rejectedConnections = Atomic<Int>(0)

    /// Metrics with one shard per event loop (extra shards are harmless).
    public init(shards count: Int) {
        shards = (0..<max(1, count)).map { _ in ShardBox() }
    }

    func record(shard: Int, route: String, status: Int, seconds: Double) {
        let label = route.isEmpty ? "unmatched" : route
        shards[shard % shards.count].lock.withLock { s in
            s.routes[label, default: RouteStats()].record(status: status, seconds: seconds)
        }
    }

    /// Currently open client connections.
    public var connections: Int { openConnections.load(ordering: .relaxed) }

    /// The metrics in Prometheus text exposition format (version 0.0.4).
    public func prometheusText() -> String {
        var requests: [Key: UInt64] = [:]
        var latency: [String: Histogram] = [:]
        for shard in shards {
            shard.lock.withLock { s in
                for (route, stats) in s.routes {
                    for (status, count) in stats.statuses { requests[Key(route: route, status: status), default: 0] += count }
                    latency[route, default: Histogram()].merge(stats.latency)
                }
            }
        }
        var out = "# HELP http_requests_total HTTP requests answered, by route and status.\n"
        out += "# TYPE http_requests_total counter\n"
        for (key, value) in requests.sorted(by: { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }) {
            out += "http_requests_total{route=\"\(escape(key.route))\",status=\"\(key.status)\"} \(value)\n"
        }
        out += "# HELP http_request_duration_seconds Time from a complete request to its response.\n"
        out += "# TYPE http_request_duration_seconds histogram\n"
        for (route, h) in latency.sorted(by: { $0.key < $1.key }) {
            var cumulative: UInt64 = 0
            let label = escape(route)
            for (i, bound) in Self.buckets.enumerated() {
                cumulative += h.counts[i]
                out += "http_request_duration_seconds_bucket{route=\"\(label)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "http_request_duration_seconds_bucket{route=\"\(label)\",le=\"+Inf\"} \(h.count)\n"
            out += "http_request_duration_seconds_sum{route=\"\(label)\"} \(h.sum)\n"
            out += "http_request_duration_seconds_count{route=\"\(label)\"} \(h.count)\n"
        }
        out += "# HELP http_open_connections Client connections currently open.\n"
        out += "# TYPE http_open_connections gauge\n"
        out += "http_open_connections \(connections)\n"
        out += "# HELP http_rejected_connections_total Connections refused with 503 at the connection limit.\n"
        out += "# TYPE http_rejected_connections_total counter\n"
        out += "http_rejected_connections_total \(rejectedConnections.load(ordering: .relaxed))\n"
        return out
    }

    private func escape(_ s: String) -> String {
        s.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"").replacingAll("\n", with: "\\n")
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
