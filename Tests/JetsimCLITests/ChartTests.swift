import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
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

    /// The charts compare writes as files of their own, by name.
    func svgFiles(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("chart-") && $0.hasSuffix(".svg") }.sorted()
    }

    @Test func plotRedrawsTheSamePageAndChartFilesFromTheCSVs() throws {
        let dir = try scratch()
        try compare(into: dir)
        let drawn = try Data(contentsOf: URL(fileURLWithPath: dir + "/report.html"))
        let svgs = try svgFiles(dir)
        #expect(svgs == ["chart-apps-iphone-6s.svg", "chart-apps-iphone-x.svg", "chart-cold-launches-vs-ram.svg", "chart-cold-launches.svg",
                         "chart-kills-by-reason.svg", "chart-latency-iphone-6s.svg", "chart-latency-iphone-x.svg", "chart-memory.svg",
                         "chart-user-visible-kills.svg"])
        let svgBytes = try svgs.map { try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)) }
        for name in ["report.html"] + svgs { try FileManager.default.removeItem(atPath: dir + "/" + name) }
        let r = try CLI.run(["plot", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/report.html")) == drawn)
        #expect(try svgFiles(dir) == svgs)
        #expect(try svgs.map { try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)) } == svgBytes)
        // Each file is a standalone SVG document holding the chart the page shows, and a second compare replaces the set.
        for (name, bytes) in zip(svgs, svgBytes) {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("<?xml") && text.contains("<svg xmlns=\"http://www.w3.org/2000/svg\"") && text.contains("<style>"), "\(name)")
            let chart = String(name.dropFirst("chart-".count).dropLast(".svg".count))
            #expect(String(decoding: drawn, as: UTF8.self).contains("data-chart=\"\(chart)\""), "\(name)")
            #expect(XMLParser(data: bytes).parse(), "\(name) is not well-formed XML")
        }
        try compare(into: dir)
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
            p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,4000"] + arguments
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
        // The DOM the browser built: every chart present, each with axes, tick labels and axis titles.
        let charts = dom.components(separatedBy: "<svg class=\"chart\"").dropFirst()
        let names = charts.compactMap { $0.split(separator: "\"").dropFirst().first.map(String.init) }
        #expect(names == ["cold-launches", "user-visible-kills", "kills-by-reason", "cold-launches-vs-ram", "apps-iphone-6s", "apps-iphone-x",
                          "memory", "latency-iphone-6s", "latency-iphone-x"])
        func count(_ text: some StringProtocol, _ what: String) -> Int { text.components(separatedBy: what).count - 1 }
        for (name, chart) in zip(names, charts) {
            #expect(count(chart, "class=\"axis ") >= 2, "\(name): axes")
            #expect(count(chart, "class=\"tick-label") >= 3, "\(name): tick labels")
            #expect(count(chart, "class=\"axis-title") >= 2, "\(name): axis titles")
            #expect(count(chart, "class=\"chart-title\"") == 1, "\(name): title")
            #expect(!chart.contains(">73430.0<") && !chart.contains("\">xnu(foreground_band"), "\(name): long numbers or labels in text")
        }
        func chart(_ name: String) -> String { zip(names, charts).first { $0.0 == name }.map { String($0.1) } ?? "" }
        // Bar charts: zero baseline labelled, counts as integers, a legend with short labels and the full names as tooltips.
        for name in ["cold-launches", "user-visible-kills"] {
            #expect(chart(name).contains("<text class=\"tick-label y\" x=\"70.0\" y=\"") && chart(name).contains(">0</text>"), "\(name)")
            #expect(count(chart(name), "<rect class=\"bar\"") == 2 * 3, "\(name)")   // devices × policies
            #expect(count(chart(name), "class=\"legend-item\"") == 3, "\(name)")
            #expect(chart(name).contains("<title>xnu(foreground_band") && chart(name).contains(">xnu</text>"), "\(name)")
            #expect(count(chart(name), "class=\"value-label\"") == 6, "\(name)")
        }
        #expect(count(chart("kills-by-reason"), "class=\"legend-item\"") >= 2)   // reasons
        #expect(chart("memory").contains("<polygon class=\"band series\"") && chart("memory").contains("Time since start (h)"))
        #expect(count(chart("memory"), "class=\"kill\"") >= 1 && count(chart("memory"), "class=\"kill\"") <= 960)
        for device in ["iphone-6s", "iphone-x"] {
            let latency = chart("latency-" + device)
            #expect(latency.contains(">100 ms</text>") && latency.contains(">1 s</text>") && latency.contains(">100 %</text>"), "\(device)")
            #expect(latency.contains("(log scale)") && count(latency, "class=\"legend-item\"") == 3, "\(device)")
        }
        // The policy table under the charts holds the full parameters.
        #expect(dom.contains("<table class=\"policies\">") && dom.contains("<code>xnu(foreground_band="))
        let shot = dir + "/report.png"
        _ = try chromium(["--screenshot=\(shot)"])
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 20_000)   // a blank page is a few kB
        print("screenshot: \(shot)")
    }
}
