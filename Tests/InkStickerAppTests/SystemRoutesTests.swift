import Foundation
import Testing

/// Health, readiness, metrics, the API description, CORS and routing errors.
@Suite(.serialized) struct SystemRoutesTests {
    @Test func healthReadinessMetricsAndSpec() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        #expect(try client.request("GET", "/healthz").json["status"] as? String == "ok")
        let ready = try client.request("GET", "/readyz")
        #expect(ready.status == 200)
        #expect((ready.json["checks"] as? [String: Any])?["database"] as? String == "ok")
        #expect((ready.json["checks"] as? [String: Any])?["ocr"] as? String == "ok")
        _ = try client.request("GET", "/nope")
        let metrics = try client.request("GET", "/metrics")
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(metrics.text.contains(#"http_requests_total{route="GET /healthz",status="200"} 1"#))
        #expect(metrics.text.contains(#"http_requests_total{route="unmatched",status="404"} 1"#))
        #expect(metrics.text.contains("http_request_duration_seconds_bucket{route=\"GET /readyz\",le=\"+Inf\"} 1"))
        #expect(metrics.text.contains("ocr_workers 1"))
        let spec = try client.request("GET", "/openapi.yaml")
        #expect(spec.status == 200)
        #expect(spec.text.hasPrefix("openapi:"))
        let languages = try client.request("GET", "/v1/languages")
        #expect((languages.json["languages"] as? [String])?.contains("eng") == true)
    }

    @Test func routingErrorsAreProblemJSON() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let missing = try client.request("GET", "/v1/nothing")
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "application/problem+json")
        #expect(missing.json["status"] as? Int == 404)
        let wrongMethod = try client.request("PUT", "/v1/boards")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "POST")
        let head = try client.request("HEAD", "/healthz")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == "15")
    }

    @Test func corsAllowsConfiguredOriginsOnly() throws {
        let harness = try ServiceHarness { $0.corsOrigins = ["https://app.example"] }
        let client = harness.client
        let preflight = try client.request("OPTIONS", "/v1/boards", headers: [
            "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type"])
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(preflight.header("Access-Control-Allow-Methods")?.contains("POST") == true)
        #expect(preflight.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
        let simple = try client.request("GET", "/healthz", headers: ["Origin": "https://app.example"])
        #expect(simple.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(simple.header("Access-Control-Expose-Headers")?.contains("ETag") == true)
        let other = try client.request("GET", "/healthz", headers: ["Origin": "https://evil.example"])
        #expect(other.header("Access-Control-Allow-Origin") == nil)
        let otherPreflight = try client.request("OPTIONS", "/v1/boards", headers: [
            "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"])
        #expect(otherPreflight.header("Access-Control-Allow-Origin") == nil)
        #expect(otherPreflight.header("Access-Control-Allow-Methods") == nil)
    }
}
