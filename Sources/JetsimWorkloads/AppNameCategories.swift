/// Maps app names and Android package names seen in real traces to a category profile (README, "Workloads"):
/// an exact entry first (`WhatsApp`, `com.whatsapp`), then keywords in the name (`mail`, `map`, `game`, …), then
/// the fallback `other`.
public enum AppNameCategories {
    /// Exact names and package names, lower case.
    public static let exact: [String: String] = {
        let table: [(String, [String])] = [
            ("messaging", ["whatsapp", "com.whatsapp", "messenger", "com.facebook.orca", "telegram", "org.telegram.messenger", "signal",
                           "org.thoughtcrime.securesms", "line", "jp.naver.line.android", "wechat", "com.tencent.mm", "messages",
                           "com.google.android.apps.messaging", "com.android.mms", "skype", "com.skype.raider", "viber", "com.viber.voip",
                           "kakaotalk", "com.kakao.talk", "imessage", "discord", "com.discord", "slack", "com.slack"]),
            ("social", ["facebook", "com.facebook.katana", "instagram", "com.instagram.android", "twitter", "com.twitter.android", "x",
                        "snapchat", "com.snapchat.android", "tiktok", "com.zhiliaoapp.musically", "reddit", "com.reddit.frontpage",
                        "pinterest", "com.pinterest", "linkedin", "com.linkedin.android", "weibo", "com.sina.weibo", "tumblr"]),
            ("browser", ["chrome", "com.android.chrome", "safari", "firefox", "org.mozilla.firefox", "opera", "com.opera.browser",
                         "samsung internet", "com.sec.android.app.sbrowser", "edge", "com.microsoft.emmx", "brave", "com.brave.browser"]),
            ("video", ["youtube", "com.google.android.youtube", "netflix", "com.netflix.mediaclient", "hulu", "prime video",
                       "com.amazon.avod.thirdpartyclient", "twitch", "tv.twitch.android.app", "vimeo", "disney+", "tv", "mx player"]),
            ("music", ["spotify", "com.spotify.music", "music", "apple music", "com.apple.android.music", "pandora", "com.pandora.android",
                       "soundcloud", "com.soundcloud.android", "youtube music", "com.google.android.apps.youtube.music", "deezer",
                       "podcasts", "audible"]),
            ("navigation", ["maps", "google maps", "com.google.android.apps.maps", "waze", "com.waze", "uber", "com.ubercab", "lyft",
                            "me.lyft.android", "citymapper", "here wego"]),
            ("game", ["candy crush", "com.king.candycrushsaga", "pubg", "com.tencent.ig", "fortnite", "clash of clans",
                      "com.supercell.clashofclans", "minecraft", "com.mojang.minecraftpe", "roblox", "com.roblox.client", "pokemon go",
                      "com.nianticlabs.pokemongo", "genshin impact", "subway surfers"]),
            ("camera", ["camera", "com.android.camera", "com.android.camera2", "com.google.android.googlecamera", "snapseed", "vsco",
                        "photos", "com.google.android.apps.photos", "gallery", "com.android.gallery3d"]),
            ("mail", ["gmail", "com.google.android.gm", "mail", "com.apple.mobilemail", "outlook", "com.microsoft.office.outlook",
                      "yahoo mail", "com.yahoo.mobile.client.android.mail", "spark", "email", "com.android.email"]),
            ("system", ["settings", "com.android.settings", "phone", "dialer", "com.android.dialer", "com.google.android.dialer",
                        "contacts", "com.android.contacts", "clock", "com.android.deskclock", "calculator", "calendar",
                        "com.google.android.calendar", "launcher", "com.google.android.apps.nexuslauncher", "files", "notes", "weather",
                        "springboard", "systemui", "com.android.systemui"]),
        ]
        var map: [String: String] = [:]
        for (category, names) in table { for n in names { map[n] = category } }
        return map
    }()

    /// Keywords tried in order when no exact entry matches.
    public static let keywords: [(String, String)] = [
        ("mail", "mail"), ("messag", "messaging"), ("chat", "messaging"), ("sms", "messaging"), ("game", "game"),
        ("music", "music"), ("radio", "music"), ("podcast", "music"), ("video", "video"), ("movie", "video"), ("map", "navigation"),
        ("navi", "navigation"), ("browser", "browser"), ("camera", "camera"), ("photo", "camera"), ("gallery", "camera"),
        ("settings", "system"), ("launcher", "system"), ("clock", "system"), ("calc", "system"),
    ]

    public static func category(for name: String) -> AppCategory {
        let key = name.lowercased()
        if let c = exact[key], let category = AppCategory.named(c) { return category }
        for (word, c) in keywords where key.contains(word) {
            if let category = AppCategory.named(c) { return category }
        }
        return AppCategory.other
    }
}
