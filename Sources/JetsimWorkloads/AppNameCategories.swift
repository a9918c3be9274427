/// Maps app names and Android package names seen in real traces to a category profile (README, "Workloads"), trying in
/// order: an exact entry (`WhatsApp`, `com.whatsapp`); the longest package prefix of a known publisher or app
/// (`com.king.` → casual-game, `com.spotify.` → music); for a package of the platform or a phone maker
/// (`com.samsung.android.dialer`, `com.miui.gallery`), a word of its function, else `system`; keywords in the name
/// (`solitaire`, `mail`, `map`, `game`, …); then the fallback `other`. `--app-overrides` at import replaces any of it
/// per app (`AppOverrides`).
public enum AppNameCategories {
    /// Exact names and package names, lower case.
    public static let exact: [String: String] = {
        let table: [(String, [String])] = [
            ("messaging", ["whatsapp", "com.whatsapp", "messenger", "com.facebook.orca", "telegram", "org.telegram.messenger", "signal",
                           "org.thoughtcrime.securesms", "line", "jp.naver.line.android", "wechat", "com.tencent.mm", "messages",
                           "com.google.android.apps.messaging", "com.android.mms", "skype", "com.skype.raider", "viber", "com.viber.voip",
                           "kakaotalk", "com.kakao.talk", "imessage", "discord", "com.discord", "slack", "com.slack", "hangouts",
                           "com.google.android.talk", "duo", "google duo", "com.google.android.apps.tachyon", "zoom", "us.zoom.videomeetings",
                           "teams", "microsoft teams", "com.microsoft.teams", "facetime", "samsung messages"]),
            ("social", ["facebook", "com.facebook.katana", "instagram", "com.instagram.android", "twitter", "com.twitter.android", "x",
                        "snapchat", "com.snapchat.android", "tiktok", "com.zhiliaoapp.musically", "reddit", "com.reddit.frontpage",
                        "pinterest", "com.pinterest", "linkedin", "com.linkedin.android", "weibo", "com.sina.weibo", "tumblr",
                        "google+", "com.google.android.apps.plus", "foursquare", "com.joelapenna.foursquared", "tinder", "com.tinder"]),
            ("browser", ["chrome", "com.android.chrome", "safari", "firefox", "org.mozilla.firefox", "opera", "com.opera.browser",
                         "samsung internet", "com.sec.android.app.sbrowser", "edge", "com.microsoft.emmx", "brave", "com.brave.browser",
                         "duckduckgo", "com.duckduckgo.mobile.android"]),
            ("video", ["youtube", "com.google.android.youtube", "netflix", "com.netflix.mediaclient", "hulu", "prime video",
                       "com.amazon.avod.thirdpartyclient", "twitch", "tv.twitch.android.app", "vimeo", "disney+", "tv", "mx player"]),
            ("music", ["spotify", "com.spotify.music", "music", "apple music", "com.apple.android.music", "pandora", "com.pandora.android",
                       "soundcloud", "com.soundcloud.android", "youtube music", "com.google.android.apps.youtube.music", "deezer",
                       "podcasts", "audible", "google play music", "com.google.android.music", "amazon music", "com.amazon.mp3",
                       "shazam", "com.shazam.android"]),
            ("navigation", ["maps", "google maps", "com.google.android.apps.maps", "waze", "com.waze", "uber", "com.ubercab", "lyft",
                            "me.lyft.android", "citymapper", "here wego", "google earth", "com.google.earth", "com.google.android.street"]),
            ("game", ["pubg", "com.tencent.ig", "fortnite", "clash of clans", "com.supercell.clashofclans", "minecraft",
                      "com.mojang.minecraftpe", "roblox", "com.roblox.client", "pokemon go", "com.nianticlabs.pokemongo", "genshin impact",
                      "call of duty", "asphalt 9"]),
            ("casual-game", ["candy crush", "candy crush saga", "com.king.candycrushsaga", "subway surfers", "com.kiloo.subwaysurf",
                             "angry birds", "fruit ninja", "temple run", "words with friends", "wordscapes", "2048", "toon blast",
                             "homescapes", "gardenscapes", "bejeweled", "com.ea.bejeweledblitz_na"]),
            ("camera", ["camera", "com.android.camera", "com.android.camera2", "com.google.android.googlecamera", "snapseed", "vsco",
                        "photos", "com.google.android.apps.photos", "gallery", "com.android.gallery3d", "com.google.android.gallery3d"]),
            ("mail", ["gmail", "com.google.android.gm", "mail", "com.apple.mobilemail", "outlook", "com.microsoft.office.outlook",
                      "yahoo mail", "com.yahoo.mobile.client.android.mail", "spark", "email", "com.android.email", "com.google.android.email"]),
            ("system", ["settings", "com.android.settings", "phone", "dialer", "com.android.dialer", "com.google.android.dialer",
                        "contacts", "com.android.contacts", "clock", "com.android.deskclock", "calculator", "calendar",
                        "com.google.android.calendar", "launcher", "com.google.android.apps.nexuslauncher", "files", "notes", "weather",
                        "springboard", "systemui", "com.android.systemui", "play store", "google play store", "app store",
                        "com.android.vending", "keep", "google keep", "com.google.android.keep", "reminders", "voice recorder",
                        "my files", "samsung notes", "keyboard", "com.google.android.inputmethod.latin"]),
        ]
        var map: [String: String] = [:]
        for (category, names) in table { for n in names { map[n] = category } }
        return map
    }()

    /// Package prefixes of publishers and apps whose packages vary (`com.spotify.music`, `com.spotify.mobile.android.ui`),
    /// lower case. A prefix matches whole dotted parts only: `com.king` matches `com.king.candycrushsaga`, not
    /// `com.kingsoft.office`; the longest matching prefix wins.
    public static let prefixes: [String: String] = [
        "com.whatsapp": "messaging", "org.telegram": "messaging", "com.viber": "messaging", "com.tencent.mm": "messaging",
        "com.facebook.orca": "messaging", "com.skype": "messaging", "us.zoom": "messaging", "com.microsoft.teams": "messaging",
        "com.facebook": "social", "com.instagram": "social", "com.snapchat": "social", "com.zhiliaoapp": "social", "com.ss.android.ugc": "social",
        "com.twitter": "social", "com.reddit": "social", "com.pinterest": "social", "com.linkedin": "social",
        "com.spotify": "music", "com.pandora": "music", "com.soundcloud": "music", "deezer": "music", "com.amazon.mp3": "music",
        "com.google.android.apps.youtube.music": "music", "com.audible": "music",
        "com.google.android.youtube": "video", "com.google.android.apps.youtube": "video", "com.netflix": "video",
        "com.amazon.avod": "video", "tv.twitch": "video", "com.disney": "video", "com.hulu": "video",
        "com.google.android.apps.maps": "navigation", "com.waze": "navigation", "com.ubercab": "navigation", "me.lyft": "navigation",
        "com.google.earth": "navigation",
        "com.mozilla": "browser", "org.mozilla": "browser", "com.opera": "browser", "com.brave": "browser", "com.microsoft.emmx": "browser",
        "com.microsoft.office.outlook": "mail", "com.yahoo.mobile.client.android.mail": "mail", "com.readdle.spark": "mail",
        "com.supercell": "game", "com.mojang": "game", "com.roblox": "game", "com.nianticlabs": "game", "com.tencent.ig": "game",
        "com.epicgames": "game", "com.activision": "game", "com.mihoyo": "game", "com.gameloft": "game", "com.miniclip": "casual-game",
        "com.king": "casual-game", "com.rovio": "casual-game", "com.zynga": "casual-game", "com.mobilityware": "casual-game",
        "com.playrix": "casual-game", "com.outfit7": "casual-game", "com.kiloo": "casual-game", "com.halfbrick": "casual-game",
        "com.imangi": "casual-game", "com.peoplefun": "casual-game", "com.tripledot": "casual-game", "com.droidhen": "casual-game",
        "com.popcap": "casual-game", "com.easybrain": "casual-game", "com.touchtype": "system",
    ]

    /// Packages of the platform and of phone makers: their apps are found by a word of their function
    /// (`vendorKeywords`), and any other is a small part of the system (`com.miui.securitycenter`,
    /// `com.google.android.gms`). Google's full apps (`com.google.android.apps.…`) are not among them.
    public static let vendorPrefixes = [
        "android", "com.android", "com.google.android", "com.samsung", "com.sec", "com.huawei", "com.hihonor", "com.miui", "com.xiaomi",
        "com.oneplus", "net.oneplus", "com.oppo", "com.coloros", "com.heytap", "com.vivo", "com.bbk", "com.motorola", "com.lge",
        "com.sonymobile", "com.sonyericsson", "com.htc", "com.asus", "com.lenovo", "com.nothing", "com.realme",
    ]

    /// Words of a vendor package's function, tried in order (before `keywords`). The counterparts of Google's and AOSP's
    /// own apps get the same category: the dialer, contacts, calendar, clock and settings are `system`, the messages app
    /// `messaging`, the camera and gallery `camera`.
    public static let vendorKeywords: [(String, String)] = [
        ("dialer", "system"), ("incallui", "system"), ("contacts", "system"), ("phone", "system"), ("calendar", "system"),
        ("clock", "system"), ("alarm", "system"), ("settings", "system"), ("launcher", "system"), ("home", "system"),
        ("calc", "system"), ("notes", "system"), ("memo", "system"), ("weather", "system"), ("files", "system"), ("filemanager", "system"),
        ("mms", "messaging"), ("messag", "messaging"), ("email", "mail"), ("camera", "camera"), ("gallery", "camera"),
        ("photos", "camera"), ("album", "camera"), ("music", "music"), ("video", "video"), ("browser", "browser"), ("maps", "navigation"),
    ]

    /// Keywords tried in order when nothing above matches. Casual-game words come before `game`, so that "Klondike
    /// Solitaire - Card Game" is a small casual game, not a GB-scale one.
    public static let keywords: [(String, String)] = [
        ("solitaire", "casual-game"), ("klondike", "casual-game"), ("freecell", "casual-game"), ("mahjong", "casual-game"),
        ("sudoku", "casual-game"), ("crossword", "casual-game"), ("puzzle", "casual-game"), ("minesweeper", "casual-game"),
        ("tetris", "casual-game"), ("bingo", "casual-game"), ("trivia", "casual-game"), ("chess", "casual-game"),
        ("mail", "mail"), ("messag", "messaging"), ("chat", "messaging"), ("sms", "messaging"), ("game", "game"),
        ("music", "music"), ("radio", "music"), ("podcast", "music"), ("video", "video"), ("movie", "video"), ("map", "navigation"),
        ("navi", "navigation"), ("browser", "browser"), ("camera", "camera"), ("photo", "camera"), ("gallery", "camera"),
        ("settings", "system"), ("launcher", "system"), ("clock", "system"), ("calc", "system"),
    ]

    public static func category(for name: String) -> AppCategory {
        AppCategory.named(categoryName(for: name)) ?? AppCategory.other
    }

    /// The name of the category `name` maps to (`other` when nothing matches).
    public static func categoryName(for name: String) -> String {
        let key = name.lowercased()
        if let c = exact[key] { return c }
        /// `prefix` is `key` or a leading run of its dotted parts.
        func starts(_ prefix: String) -> Bool { key == prefix || key.hasPrefix(prefix + ".") }
        if let c = prefixes.filter({ starts($0.key) }).max(by: { $0.key.count < $1.key.count })?.value { return c }
        if vendorPrefixes.contains(where: starts), !starts("com.google.android.apps") {
            return vendorKeywords.first { key.contains($0.0) }?.1 ?? "system"
        }
        return keywords.first { key.contains($0.0) }?.1 ?? AppCategory.other.name
    }
}
