import Foundation
import JetsimCore
@testable import JetsimIO
import JetsimWorkloads
import Testing

/// The name → category table (issue 20: Klondike Solitaire was a 700 MB game, Samsung's dialer `other`).
@Suite struct AppNameCategoryTests {
    @Test func casualGamesAreSmallNotGBScale() throws {
        for name in ["Klondike Solitaire", "Klondike Solitaire - Card Game", "com.mobilityware.solitaire", "com.king.candycrushsaga",
                     "Sudoku", "com.ea.BejeweledBlitz_na"] {
            #expect(AppNameCategories.categoryName(for: name) == "casual-game", "\(name)")
        }
        let casual = AppNameCategories.category(for: "Klondike Solitaire"), game = try #require(AppCategory.named("game"))
        #expect(casual.dirtyMB * 4 < game.dirtyMB && casual.growthMBPerMinute <= 1)
        #expect(AppNameCategories.categoryName(for: "Call of Duty") == "game" && AppNameCategories.categoryName(for: "Some Game") == "game")
    }

    @Test func phoneMakersAppsGetTheirGoogleCounterpartsCategory() {
        let expected: [(String, String)] = [
            ("com.samsung.android.dialer", "system"), ("com.samsung.android.calendar", "system"), ("com.samsung.android.contacts", "system"),
            ("com.sec.android.app.clockpackage", "system"), ("com.huawei.contacts", "system"), ("com.miui.home", "system"),
            ("com.oneplus.deskclock", "system"), ("com.miui.securitycenter", "system"), ("com.android.phone", "system"),
            ("com.samsung.android.messaging", "messaging"), ("com.sec.android.app.camera", "camera"), ("com.miui.gallery", "camera"),
            ("com.google.android.calendar", "system"), ("com.android.mms", "messaging"),
        ]
        for (name, category) in expected { #expect(AppNameCategories.categoryName(for: name) == category, "\(name)") }
        // Google's full apps are not system parts; prefixes match whole dotted parts only.
        #expect(AppNameCategories.categoryName(for: "com.google.android.apps.walletnfcrel") == "other")
        #expect(AppNameCategories.categoryName(for: "com.kingsoft.office") == "other")
        #expect(AppNameCategories.categoryName(for: "com.spotify.mobile.android.ui") == "music")
        #expect(AppNameCategories.categoryName(for: "com.google.android.apps.youtube.music") == "music")
    }
}

/// `--app-overrides`: per-app categories and sizes, every bad row located.
@Suite struct AppOverrideTests {
    func read(_ text: String) throws(InputError) -> AppOverrides { try AppOverrides.read(CSVReader(text: text, name: "o.csv")) }

    @Test func overridesReplaceTheTablePerApp() throws {
        let o = try read("app,category,dirty_mb,growth_mb_per_min\nMyPlayer,music,55.5,\nKlondike Solitaire,,30,0\n")
        #expect(o.apps == ["MyPlayer", "Klondike Solitaire"])
        let player = o.profile(for: "MyPlayer")
        #expect(o.category(for: "MyPlayer").name == "music" && player.backgroundModes == .audio)
        #expect(player.dirtyBytes == 55 * Units.mebibyte + Units.mebibyte / 2 && player.maxDirtyBytes == 2 * player.dirtyBytes)
        #expect(player.growthBytesPerMinute == AppCategory.named("music")?.profile(named: "x").growthBytesPerMinute)
        let klondike = o.profile(for: "Klondike Solitaire")   // an empty category keeps the table's
        #expect(o.category(for: "Klondike Solitaire").name == "casual-game")
        #expect(klondike.dirtyBytes == 30 * Units.mebibyte && klondike.growthBytesPerMinute == 0)
        #expect(o.profile(for: "WhatsApp") == AppNameCategories.category(for: "WhatsApp").profile(named: "WhatsApp"))

        // The writer's apps.csv uses them.
        let writer = ImportWriter(inMemory: "iv.csv")
        writer.overrides = o
        try IntervalsImporter.run(bytes: Array("user,start,end,app\n1,0,1000,MyPlayer\n".utf8), name: "iv.csv", writer: writer,
                                  timeUnit: .milliseconds)
        try writer.commit()
        #expect(writer.output?.apps.contains("\nMyPlayer,55.5,1,111,") == true, "\(writer.output?.apps ?? "")")
    }

    @Test func badRowsAreLocated() {
        let cases: [(String, Int?, String?, String)] = [
            ("", nil, nil, "the file is empty"),
            ("app,dirty_mb\nx,1\n", 1, "category", "required column is missing"),
            ("app,category,footprint\n", 1, "footprint", "unknown column"),
            ("app,category,category\n", 1, "category", "column given twice"),
            ("app,category\nx,music\ny,gmae\n", 3, "category", "unknown category 'gmae' (known: messaging"),
            ("app,category\n,music\n", 2, "app", "the app name is empty"),
            ("app,category\nx,music\nx,video\n", 3, "app", "already overridden on line 2"),
            ("app,category,dirty_mb\nx,music,lots\n", 2, "dirty_mb", "expected a size in MB"),
            ("app,category,dirty_mb\nx,music,-3\n", 2, "dirty_mb", "must not be negative"),
            ("app,category,dirty_mb\nx,music,600000000000\n", 2, "dirty_mb", "too large"),
            ("app,category\nx,music,1\n", 2, nil, "expected 2 fields, found 3"),
        ]
        for (text, line, field, message) in cases {
            let e = caught { _ = try read(text) }
            #expect(e?.file == "o.csv" && e?.line == line && e?.field == field, "\(text): \(String(describing: e))")
            #expect(e?.message.contains(message) == true, "\(text): \(String(describing: e))")
            #expect(e?.exitCode == InputError.dataError, "\(text)")
        }
    }
}

/// `--background-play`: an app whose category plays when left gets its mode from the moment it is left.
@Suite struct BackgroundPlayTests {
    func imported(_ text: String, play: Int, lsapp: Bool = false) throws -> (trace: String, apps: String) {
        let writer = ImportWriter(inMemory: "in")
        writer.backgroundPlayMicros = play * Units.microsPerSecond
        if lsapp {
            try LSAppImporter.run(bytes: Array(text.utf8), name: "in", writer: writer, timeUnit: .seconds)
        } else {
            try IntervalsImporter.run(bytes: Array(text.utf8), name: "in", writer: writer, timeUnit: .seconds)
        }
        try writer.commit()
        return writer.output ?? ("", "")
    }

    static let day = """
        user,start,end,app
        1,1000000000,1000000300,Spotify
        1,1000000302,1000000400,Chrome
        1,1000001000,1000001060,Waze
        1,1000001200,1000001260,Spotify
        1,1000001300,1000001320,Spotify
        2,1000000000,1000000060,Spotify

        """

    @Test func musicAndNavigationAppsPlayOnAfterTheyAreLeft() throws {
        let out = try imported(Self.day, play: 1800)
        #expect(rows(out.trace) == [
            "0.000,Spotify,open,,1",
            "302.000,Spotify,mode_start,audio,1", "302.000,Chrome,open,,1",      // left for another app
            "400.000,,home,,1",
            "1000.000,Waze,open,,1",
            "1060.000,Waze,mode_start,location,1", "1060.000,,home,,1",        // left for the home screen
            "1200.000,Spotify,open,,1",                                         // opened again: plays on screen, no stop
            "1260.000,Spotify,mode_start,audio,1", "1260.000,,home,,1",
            "1300.000,Spotify,open,,1",
            "1320.000,Spotify,mode_start,audio,1", "1320.000,,home,,1",
            "2860.000,Waze,mode_stop,location,1",
            "3120.000,Spotify,mode_stop,audio,1",
            // the next user starts an hour after user 1's last event
            "4920.000,Spotify,open,,2", "4980.000,Spotify,mode_start,audio,2", "4980.000,,home,,2", "6780.000,Spotify,mode_stop,audio,2",
        ], "\(out.trace)")
        // The catalog declares the modes, so the engine plays them: Spotify is still running when Waze stops.
        let (catalog, events) = try readBack(out)
        #expect(events.filter { $0.kind == .modeStart }.count == 5)
        #expect(catalog.profiles.first { $0.name == "Spotify" }?.backgroundModes == .audio)
        // Without the option nothing is added.
        #expect(!(try imported(Self.day, play: 0).trace.contains("mode_")))
    }

    @Test func aUsersModesStopBeforeTheNextUserStarts() throws {
        let out = try imported("user,start,end,app\n1,1000000000,1000000060,Spotify\n2,1000000000,1000000060,Chrome\n", play: 7200)
        #expect(rows(out.trace) == ["0.000,Spotify,open,,1", "60.000,Spotify,mode_start,audio,1", "60.000,,home,,1",
                                    "3660.000,Spotify,mode_stop,audio,1", "3660.000,Chrome,open,,2", "3720.000,,home,,2"], "\(out.trace)")
    }

    @Test func lsappToo() throws {
        let text = "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n1\t1\t1000000000\tSpotify\tOpened\n1\t1\t1000000100\tSpotify\tClosed\n"
        #expect(rows(try imported(text, play: 60, lsapp: true).trace)
                == ["0.000,Spotify,open,,1", "100.000,Spotify,mode_start,audio,1", "100.000,,home,,1", "160.000,Spotify,mode_stop,audio,1"])
    }
}
