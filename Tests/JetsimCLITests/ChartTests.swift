import Foundation
import Testing

@Suite struct ChartTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    func compare(into dir: String) throws {
        let r = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "xnu,lru,largest",
                             "--devices", "iphone-6s,iphone-x", "--out", dir, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func theChartedCellCanBeChosen() throws {
        let dir = try scratch()
        let r = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "xnu,lru",
                             "--devices", "iphone-6s,iphone-x", "--chart-device", "iphone-x", "--chart-policy", "lru", "--out", dir, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let kills = try String(contentsOfFile: dir + "/chart-kills.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(!kills.isEmpty && kills.allSatisfy { $0.hasPrefix("iphone-x,lru,1,") })
        let bad = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "xnu",
                               "--devices", "iphone-x", "--chart-policy", "lru", "--out", dir + "/b", "--quiet"])
        #expect(bad.status == 64)
        #expect(!FileManager.default.fileExists(atPath: dir + "/b"))
    }

    @Test func plotRedrawsTheSamePageFromTheCSVs() throws {
        let dir = try scratch()
        try compare(into: dir)
        let drawn = try Data(contentsOf: URL(fileURLWithPath: dir + "/report.html"))
        try FileManager.default.removeItem(atPath: dir + "/report.html")
        let r = try CLI.run(["plot", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/report.html")) == drawn)
        let html = String(decoding: drawn, as: UTF8.self)
        #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"))   // self-contained
        #expect(try CLI.run(["plot", dir + "/nothing-here"]).status == 66)
    }

    /// Found by fuzzing: `inf`, `nan` or `1e300` in a compare directory's CSVs trapped `plot` (Double → Int).
    @Test func plotRefusesNumbersItCannotDrawWithTheirPlace() throws {
        let dir = try scratch()
        try compare(into: dir)
        let page = try Data(contentsOf: URL(fileURLWithPath: dir + "/report.html"))
        for (file, column, value) in [("summary.csv", "cold_launches", "inf"), ("latency.csv", "latency_ms", "1e300"),
                                      ("chart-timeseries.csv", "time", "nan"), ("chart-kills.csv", "time", "-inf")] {
            let path = dir + "/" + file
            let original = try String(contentsOfFile: path, encoding: .utf8)
            var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let k = lines[0].split(separator: ",").firstIndex { $0 == column } ?? 0
            // Policies hold commas in quotes: replace the k-th field counted from the end, where none are quoted.
            var fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[fields.count - (lines[0].split(separator: ",").count - k)] = value
            lines[1] = fields.joined(separator: ",")
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let r = try CLI.run(["plot", dir])
            #expect(r.status == 65, "\(file): \(r.stderr)")
            #expect(r.stderr.contains("\(file):2: field '\(column)': expected a finite number"), "\(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/report.html")) == page)   // left as it was
            try original.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(try CLI.run(["plot", dir]).status == 0)
    }

    /// The page in a real headless browser: it loads, its charts have content, and a screenshot shows them.
    @Test(.enabled(if: ChartTests.chromium != nil))
    func theReportRendersInAHeadlessBrowser() throws {
        let dir = try scratch()
        try compare(into: dir)
        func chromium(_ arguments: [String]) throws -> (Int32, String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: ChartTests.chromium ?? "")
            p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=820,1400"] + arguments
                + ["file://\(dir)/report.html"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let (status, dom) = try chromium(["--dump-dom"])
        #expect(status == 0)
        // The DOM the browser built: every chart present and drawn.
        #expect(dom.contains("data-chart=\"cold_launches\"") && dom.contains("data-chart=\"user_visible_kills\""))
        #expect(dom.components(separatedBy: "<rect").count - 1 == 2 * 2 * 3)     // two bar charts × devices × policies
        #expect(dom.contains("data-chart=\"memory\"") && dom.contains("<polyline class=\"series\""))
        #expect(dom.components(separatedBy: "class=\"kill\"").count > 1)          // the 6s kills on this day
        #expect(dom.components(separatedBy: "data-chart=\"latency\"").count - 1 == 2)
        let shot = dir + "/report.png"
        _ = try chromium(["--screenshot=\(shot)"])
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 20_000)   // a blank page is a few kB
        print("screenshot: \(shot)")
    }
}
