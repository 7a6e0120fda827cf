#!/usr/bin/env python3
"""A small PokeAPI look-alike for pokedexd's own tests (standard library only).

It serves hand-written bodies shaped like PokeAPI's for a few dozen Pokémon:
  GET /api/v2/pokemon/?offset=&limit=      the list (count, next, previous, results)
  GET /api/v2/pokemon/{id|name}/           a pokemon body; its "forms" names /pokemon-form/{id}/ (the
                                           Pokémon's own id), its stats' URLs the real stat ids
  GET /api/v2/pokemon-species/{id|name}/   a species body (genus, flavour text with \\f and \\n): English
                                           genus "Mouse Pokémon" (#25) or "Test Pokémon {id}", ja genus
                                           "ネズミポケモン", English flavour text, the newest ("It keeps its
                                           tail…", shield) the last English entry, en and ja-hrkt names (de
                                           "Glurak" for #6). For the species in SPECIES_TEXT (1, 3, 4, 6, 7, 25,
                                           26, 29, 386) also the real names in ko, zh-hant, fr, de, ja,
                                           zh-hans (ja-hrkt real too), genera and the newest flavour text in
                                           de and ja-hrkt, appended after those
  GET /api/v2/type/ and /api/v2/generation/   the lists; /type/{name}/ (a type's pokemon, and the real
                                           `names` in every language for the types in TYPES and normal),
                                           /generation/{id|name}/ (its species)
  GET /api/v2/ability/{id|name}/           {id, name, names} for static (9) and lightning-rod (31)
  GET /api/v2/stat/{id|name}/              {id, name, names} for hp (1), attack, defense,
                                           special-attack, special-defense, speed (6)
  GET /api/v2/pokemon-form/{id|name}/      {id, name, form_name, is_default, names, form_names, pokemon:
                                           {name, url}} for every Pokémon the list has, its id the
                                           Pokémon's: the real names for the forms in FORMS (deoxys-attack,
                                           venusaur-mega), empty lists for the default forms
  GET /api/v2/evolution-chain/{id}/        every real family (evolution-chains.json, tools/gen-mock-chains.py:
                                           every trigger kind, Eevee's eight branches, three stages) in
                                           PokeAPI's shape, every detail key present; a species body names
                                           its chain (`evolution_chain`) for every species of the file
  GET /api/v2/language/                    {count, results: [{name, url}]}: PokeAPI's 14 languages
  GET /api/v2/language/{id|name}/          {id, name, iso639, iso3166, official, names}
  (`names` and `form_names` are PokeAPI's [{name, language: {name, url}}], real texts from pokeapi.co's
  data kept in this file; an unknown ability, stat, form or language is a 404, as any unknown is.)
  GET /sprites/{id}.png                    a real 8x8 PNG, one colour per id
  GET /sprites/anim/{id}.gif               a real 2-frame 8x8 GIF (forms past 10000 have none)
  GET /sprites/shiny/{id}.png              the shiny sprite: 8x8, the default's colour inverted
  GET /cries/{id}.ogg                      the cry a pokemon body names (`cries.latest`, on the sprite host;
                                           forms name none): every one cry.ogg, 0.35 s of a rising tone in Ogg
                                           Vorbis (sox synth 0.35 sine 660:1320, oggenc -q 0)
with ETag / If-None-Match (304), Cache-Control max-age, gzip when asked, keep-alive.
Absolute URLs in bodies use the request's Host header: http://HOST, or https://HOST when the
mock serves TLS itself (--tls-cert) or the request says X-Forwarded-Proto: https (a TLS front
such as Tests/mockapi/h2-front.sh sends it).

Control (not PokeAPI):
  POST /__control  JSON: latency_ms, latency_prefix (only paths starting with it are
                   delayed), offline (close every connection unanswered), fail_status
                   (answer every API request with it), max_age, evil_sprite (name a sprite
                   on a host outside any allowlist for #44), retry_after, fail_count (with
                   fail_status: only the next N API requests fail, then it answers again;
                   null, the default: every request fails), total (list this many Pokémon,
                   inventing mon-N past the real names: 1351 gives PokeAPI's 68 pages),
                   fault_500 / fault_cut / fault_429 (the share of requests answered 500, cut
                   off halfway through the body, or 429 with Retry-After: retry_after or 1),
                   seed (for those draws), redirect_sprites (answer sprite requests with a
                   302 to this base URL + the path), sprite_base (default "": when set, bodies
                   name their sprites at sprite_base/sprites/{id}.png and
                   sprite_base/sprites/anim/{id}.gif: the second listener, another host name,
                   or one that does not answer; evil_sprite still wins for #44),
                   sprite_host_offline (default false: the second listener closes every
                   connection unanswered; the first one is unaffected),
                   oversize (default {}: {kind: bytes}, kind as in by_kind: pokemon,
                   pokemon-species, pokemon-list, filters, names, sprite, animated-sprite; a JSON body
                   gets a "padding" string so that, uncompressed, it is at least that many bytes
                   and still valid JSON; an image gets zero bytes after it; Content-Length is
                   honest), oversize_no_length (default false: send those padded bodies chunked,
                   with no Content-Length), cache_control (default "": the whole Cache-Control
                   value, verbatim, on 200 and 304 alike), huge_sprites (default 0: when
                   set, every /sprites/N.png and /sprites/shiny/N.png is a valid PNG of that
                   many pixels each way, one colour, built once: 4096 is ~64 KB on the wire
                   and 64 MB of pixels; --huge-sprites starts with 4096); max_age is written verbatim into
                   "public, max-age=VALUE" too: a string ("inf", "nan", "-1", "1e9", "abc") as
                   it is, a number as the JSON spelled it
  GET  /__stats    JSON: by_kind counts (pokemon-list, pokemon, pokemon-species, filters: /type and
                   /generation, names: /ability, /stat, /pokemon-form and /language, evolution-chain, sprite,
                   animated-sprite, cry, other; every kind but other can draw a fault_*), requests,
                   gzip, not_modified, connections, user_agents, if_none_match, faults (by kind), abandoned, by_listener ({api,
                   sprites}: requests each listener took), in_flight (GETs being answered now,
                   control and stats requests aside) and max_in_flight (the most at once since
                   the last reset)
  POST /__stats/reset  every count to 0; in_flight stays the live count of requests still
                   being answered, and max_in_flight starts again from 0

Hostile mode (--hostile, or POST /__control {"hostile": true}; default off, and nothing changes
while it is off): a server that trusts nothing plays against one. It serves
  * Text: every human text field (species genus, flavour text and localized names, in every
    language; the `names` and `form_names` of /ability, /stat, /pokemon-form and /language
    bodies; the `names` of a /type/{name} and /generation/{id} body, which in this mode are en
    and ja-hrkt ones of its own, in place of a type's real ones) is
    legit text wrapped in EVERY payload of HOSTILE_PAYLOADS, rotated per field (the first payload
    before the legit text, the others after it): OSC 52 clipboard write, ESC[2J, C1 CSI U+009B,
    BEL, RLO U+202E, isolate U+2066, BS, DEL, "\\n<0>forged", conky ${exec …}, polybar
    %{A1:…:}x%{A}, Pango <b>/<span>/&, "&amp;". The legit text stays whole in the middle
    ("Mouse Pokémon", "ネズミポケモン", "Pikachu", "ピカチュウ" for #25), and must survive.
    Bodies are raw UTF-8 (C1, DEL and bidi characters unescaped; C0 as JSON \\u escapes):
    valid JSON.
  * Names: API `name` fields of real entries stay valid. The list (/api/v2/pokemon/) ends with
    HOSTILE_NAMES at ids 99001.. (past any real id; those ids answer 404), `count` included:
    ESC[2J, ../../etc/passwd, 300 × "a", Pika<b>, conky and polybar syntax, a newline, an RLO.
  * Cache-Control "public, max-age=X" on every API and sprite answer (200 and 304), X by the
    Pokémon id the path names (a number, or a name looked up; the same for /pokemon/N,
    /pokemon-species/N, /sprites/N.png, /sprites/anim/N.gif): id % 4 == 0: -1, 1: inf (#25),
    2: nan (#26), 3: 99999999999999999999; a path with no id (list, /type, /generation, and
    /ability, /stat, /pokemon-form, /language): inf.
    An explicit cache_control setting still wins.
  * Transport attacks, on GET /api/v2/pokemon/{id|name}/ (their species stay hostile-text only):
      #21 spearow  oversized: valid JSON padded to 5 MiB, never gzipped, honest Content-Length
      #22 fearow   never ends: chunked, a valid JSON start then 1 KiB of padding every 0.1 s,
                   until the client goes away (checked on every chunk) or 10 minutes pass
      #23 ekans    gzip bomb: Content-Encoding: gzip whatever was asked, ~1 MB on the wire that
                   inflates to 1 GiB + the body (spaces inside the JSON: still valid), built
                   once, block by block
    and on sprites:
      #24 arbok    /sprites/24.png: a PNG whose IHDR claims 100000×100000 RGBA (valid
                   signature and CRCs, one row of data, ~1 KB)
      #26 raichu   /sprites/anim/26.gif: logical screen 8×8; frame 1's descriptor claims
                   65535×65535 with 64 pixels of data; frame 2 sits at (60000, 60000), claims
                   8×8 and carries 4096 pixels (structurally valid: blocks and trailer)
    Every other id, pikachu (#25) and the first page (1-20) included, answers hostile text in
    otherwise valid bodies and sprites. /__stats gains "hostile": how many of each attack were
    served (oversized, endless, endless_gone (the client left), gzip_bomb, png_bomb, gif_lie).
Usage: mock_pokeapi.py --port 0 --port-file FILE [--sprite-port-file FILE] [--tls-cert PEM] [--hostile] [--huge-sprites]
  --port-file: the port, written atomically once the listener is open.
  --sprite-port-file: a second listener (same answers, settings and stats) on 127.0.0.1 on a
  free port, written atomically to FILE, for a sprite host of its own: set sprite_base to
  http://localhost:THAT_PORT (another host name than 127.0.0.1).
"""
import argparse, gzip, hashlib, json, os, random, re, select, socket, struct, threading, time, zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

NAMES = ["bulbasaur", "ivysaur", "venusaur", "charmander", "charmeleon", "charizard", "squirtle",
         "wartortle", "blastoise", "caterpie", "metapod", "butterfree", "weedle", "kakuna", "beedrill",
         "pidgey", "pidgeotto", "pidgeot", "rattata", "raticate", "spearow", "fearow", "ekans", "arbok",
         "pikachu", "raichu", "sandshrew", "sandslash", "nidoran-f", "nidorina", "nidoqueen", "nidoran-m",
         "nidorino", "nidoking", "clefairy", "clefable", "vulpix", "ninetales", "jigglypuff", "wigglytuff",
         "zubat", "golbat", "oddish", "gloom"]
# Forms live past 10000, as in PokeAPI.
FORMS = [(10001, "deoxys-attack", 386), (10033, "venusaur-mega", 3)]
TYPES = {1: ["grass", "poison"], 4: ["fire"], 6: ["fire", "flying"], 7: ["water"], 25: ["electric"], 26: ["electric"]}

# Real texts from PokeAPI (pokeapi.co's data, as its API serves it), embedded so that the tests
# need nothing else: every language's name of the languages, the types in TYPES (and normal),
# the abilities and stats pokemon_body names, the forms in FORMS; and, for the species below,
# what species_body adds to its own English entries: names, genera and the newest flavour text
# (the last entry in the API's list) in de and ja-hrkt. A dict per resource, by its name or id.
LANGUAGES = {  # name: (id, iso639, iso3166, official, {language: what it calls this one})
    "ja-hrkt": (1, "ja", "jp", True, {"ja-hrkt": "日本語 (仮名)", "ko": "일본어 히라가나와 가타카나", "fr": "Japonais Hiragana et Katakana", "de": "Japanisch Hiragana und Katakana", "es": "Japonés Hiragana y Katakana", "it": "Giapponese Hiragana e Katakana", "en": "Japanese Hiragana and Katakana", "pt-br": "Japonês em Hiragana e Katakana", "es-419": "Japonés Hiragana y Katakana"}),
    "ja-roma": (2, "ja", "jp", True, {"ja-hrkt": "ローマ字", "ko": "정식 로마자", "fr": "Romaji", "de": "Rōmaji", "es": "Romaji", "it": "Giapponese rōmaji", "en": "Japanese romaji", "pt-br": "Japonês em romaji", "es-419": "Romaji"}),
    "ko": (3, "ko", "kr", True, {"ja-hrkt": "韓国語", "ko": "한국어", "fr": "Coréen", "de": "Koreanisch", "es": "Coreano", "it": "Coreano", "en": "Korean", "pt-br": "Coreano", "es-419": "Coreano"}),
    "zh-hant": (4, "zh", "tw", True, {"ja-hrkt": "中国語", "ko": "중국어", "fr": "Chinois", "de": "Chinesisch", "es": "Chino tradicional", "it": "Cinese tradizionale", "en": "Traditional chinese", "pt-br": "Chinês tradicional", "es-419": "Chino tradicional"}),
    "fr": (5, "fr", "fr", True, {"ja-hrkt": "フランス語", "ko": "프랑스어", "fr": "Français", "de": "Französisch", "es": "Francés", "it": "Francese", "en": "French", "pt-br": "Francês", "es-419": "Francés"}),
    "de": (6, "de", "de", True, {"ja-hrkt": "ドイツ語", "ko": "도이치어", "fr": "Allemand", "de": "Deutsch", "es": "Alemán", "it": "Tedesco", "en": "German", "pt-br": "Alemão", "es-419": "Alemán"}),
    "es": (7, "es", "es", True, {"ja-hrkt": "スペイン語", "ko": "스페인어", "fr": "Espagnol", "de": "Spanisch", "es": "Español", "en": "Spanish", "pt-br": "Espanhol", "es-419": "Español"}),
    "it": (8, "it", "it", True, {"ja-hrkt": "イタリア語", "ko": "이탈리아어", "fr": "Italien", "de": "Italienisch", "es": "Italiano", "it": "Italiano", "en": "Italian", "pt-br": "Italiano", "es-419": "Italiano"}),
    "en": (9, "en", "us", True, {"ja-hrkt": "英語", "ko": "영어", "fr": "Anglais", "de": "Englisch", "es": "Inglés", "it": "Inglese", "en": "English", "pt-br": "Inglês", "es-419": "Inglés"}),
    "cs": (10, "cs", "cz", False, {"ja-hrkt": "チェコ語", "ko": "체코어", "fr": "Tchèque", "de": "Tschechisch", "es": "Checo", "it": "Ceco", "en": "Czech", "pt-br": "Tcheco", "es-419": "Checo"}),
    "ja": (11, "ja", "jp", True, {"es": "Japonés", "it": "Giapponese", "en": "Japanese", "pt-br": "Japonês", "es-419": "Japonés"}),
    "zh-hans": (12, "zh", "cn", True, {"es": "Chino simplificado", "it": "Cinese semplificato", "en": "Simplified chinese", "pt-br": "Chinês simplificado", "es-419": "Chino simplificado"}),
    "pt-br": (13, "pt", "br", True, {"ja-roma": "Burajiru porutogaru-go", "ko": "브라질 포르투갈어", "fr": "Portugais brésilien", "de": "Brasilianisches portugiesisch", "es": "Portugués brasileño", "it": "Portoghese brasiliano", "en": "Brazilian portuguese", "cs": "Brazilská portugalština", "pt-br": "Português brasileiro", "es-419": "Portugués brasileño"}),
    "es-419": (14, "es", "mx", True, {"ja-hrkt": "ラテンアメリカスペイン語", "ja-roma": "Raten Amerika Supein-go", "ko": "라틴 아메리카 스페인어", "zh-hant": "拉丁美洲西班牙文", "fr": "Espagnol latino américain", "de": "Lateinamerikanisches Spanisch", "es": "Español latinoamericano", "it": "Spagnolo latinoamericano", "en": "Latin American Spanish", "cs": "Latinskoamerická španělština", "ja": "ラテンアメリカスペイン語", "zh-hans": "拉丁美洲西班牙语", "pt-br": "Espanhol latino americano", "es-419": "Español latinoamericano"}),
}
SPECIES_TEXT = {  # id: names (the languages species_body adds), genera and the newest flavour text (version, text)
    1: {"names": {"ja-hrkt": "フシギダネ", "ko": "이상해씨", "zh-hant": "妙蛙種子", "fr": "Bulbizarre", "de": "Bisasam", "ja": "フシギダネ", "zh-hans": "妙蛙种子"},
         "genera": {"ja-hrkt": "たねポケモン", "de": "Samen-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "うまれて\u3000しばらくの\u3000あいだ\nせなかの\u3000タネに\u3000つまった\nえいようを\u3000とって\u3000そだつ。"),
                    "de": ("shield", "Nach der Geburt nimmt es für eine Weile\nNährstoffe über den Samen auf seinem\nRücken auf.")}},
    3: {"names": {"ja-hrkt": "フシギバナ", "ko": "이상해꽃", "zh-hant": "妙蛙花", "fr": "Florizarre", "de": "Bisaflor", "ja": "フシギバナ", "zh-hans": "妙蛙花"},
         "genera": {"ja-hrkt": "たねポケモン", "de": "Samen-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "はなから\u3000うっとりする\u3000かおりが\nただよい\u3000たたかうものの\u3000きもちを\nなだめてしまう。"),
                    "de": ("shield", "Die Blume verströmt einen zauberhaften Duft.\nEr beschwichtigt erhitzte Kämpfer.")}},
    4: {"names": {"ja-hrkt": "ヒトカゲ", "ko": "파이리", "zh-hant": "小火龍", "fr": "Salamèche", "de": "Glumanda", "ja": "ヒトカゲ", "zh-hans": "小火龙"},
         "genera": {"ja-hrkt": "とかげポケモン", "de": "Echsen-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "うまれたときから\u3000しっぽに\u3000ほのおが\nともっている。\u3000ほのおが\u3000きえたとき\nその\u3000いのちは\u3000おわって\u3000しまう。"),
                    "de": ("shield", "Von Geburt an brennt die Flamme auf seiner\nSchwanzspitze. Sobald sie verglimmt, erlischt\nauch sein Lebenslicht.")}},
    6: {"names": {"ja-hrkt": "リザードン", "ko": "리자몽", "zh-hant": "噴火龍", "fr": "Dracaufeu", "de": "Glurak", "ja": "リザードン", "zh-hans": "喷火龙"},
         "genera": {"ja-hrkt": "かえんポケモン", "de": "Flammen-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "ちじょう\u3000１４００メートル\u3000まで\nハネを\u3000つかって\u3000とぶことができる。\nこうねつの\u3000ほのおを\u3000はく。"),
                    "de": ("shield", "Dieses Pokémon kann mit seinen Flügeln eine\nHöhe von bis zu 1 400 m erreichen. Es spuckt\nsehr heißes Feuer.")}},
    7: {"names": {"ja-hrkt": "ゼニガメ", "ko": "꼬부기", "zh-hant": "傑尼龜", "fr": "Carapuce", "de": "Schiggy", "ja": "ゼニガメ", "zh-hans": "杰尼龟"},
         "genera": {"ja-hrkt": "かめのこポケモン", "de": "Minikröten-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "あぶなくなると\u3000こうらに\u3000てあしを\nひっこめて\u3000みを\u3000まもりながら\nくちから\u3000みずを\u3000ふきだしてくる。"),
                    "de": ("shield", "Fühlt es sich bedroht, verkriecht es sich in seinen\nPanzer und spuckt Wasser aus seinem Maul.")}},
    25: {"names": {"ja-hrkt": "ピカチュウ", "ko": "피카츄", "zh-hant": "皮卡丘", "fr": "Pikachu", "de": "Pikachu", "ja": "ピカチュウ", "zh-hans": "皮卡丘"},
         "genera": {"ja-hrkt": "ねずみポケモン", "de": "Maus-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "おたがいの\u3000しっぽを\u3000くっつけて\nでんきを\u3000ながしあうのが\nピカチュウ\u3000どうしの\u3000あいさつだ。"),
                    "de": ("shield", "Pikachu begrüßen einander, indem sie ihre\nSchweife aneinanderreiben und eine Ladung\nStrom durch diese gleiten lassen.")}},
    26: {"names": {"ja-hrkt": "ライチュウ", "ko": "라이츄", "zh-hant": "雷丘", "fr": "Raichu", "de": "Raichu", "ja": "ライチュウ", "zh-hans": "雷丘"},
         "genera": {"ja-hrkt": "ねずみポケモン", "de": "Maus-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "でんきぶくろが\u3000からっぽに\u3000なると\nしっぽを\u3000まっすぐ\u3000たてて\nくうきちゅうの\u3000でんきを\u3000あつめる。"),
                    "de": ("shield", "Wenn der in seinen Backentaschen gespeicherte\nStrom leer ist, stellt es seinen Schweif auf, um\nElektrizität aus der Luft zu ziehen.")}},
    29: {"names": {"ja-hrkt": "ニドラン♀", "ko": "니드런♀", "zh-hant": "尼多蘭", "fr": "Nidoran♀", "de": "Nidoran♀", "ja": "ニドラン♀", "zh-hans": "尼多兰"},
         "genera": {"ja-hrkt": "どくばりポケモン", "de": "Giftdorn-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "かたい\u3000まえばで\u3000きのみを\u3000くだいて\nたべる。\u3000ツノの\u3000さきは\u3000オスより\nすこし\u3000まるみを\u3000おびている。"),
                    "de": ("shield", "Mit ihren harten Vorderzähnen zerteilen sie\nBeeren, bevor sie diese essen. Die Spitze ihres\nHorns ist etwas abgerundeter als bei Männchen.")}},
    386: {"names": {"ja-hrkt": "デオキシス", "ko": "테오키스", "zh-hant": "代歐奇希斯", "fr": "Deoxys", "de": "Deoxys", "ja": "デオキシス", "zh-hans": "代欧奇希斯"},
         "genera": {"ja-hrkt": "ＤＮＡポケモン", "de": "DNS"},
         "flavor": {"ja-hrkt": ("alpha-sapphire", "うちゅうウィルスから\u3000たんじょうした\u3000ポケモン。\nちのうが\u3000たかく\u3000ちょうのうりょくを\u3000あやつる。\nむねの\u3000すいしょうたいから\u3000レーザーを\u3000だす。"),
                    "de": ("alpha-sapphire", "Deoxys ging aus einem Virus aus dem Weltraum hervor.\nEs ist sehr intelligent und nutzt psychokinetische Energie.\nDieses Pokémon verschießt Laserstrahlen aus einem\nkristallartigen Organ auf seinem Brustkorb.")}},
}
TYPE_NAMES = {  # name: (id, {language: name})
    "normal": (1, {"ja-hrkt": "ノーマル", "ko": "노말", "zh-hant": "一般", "fr": "Normal", "de": "Normal", "es": "Normal", "it": "Normale", "en": "Normal", "ja": "ノーマル", "zh-hans": "一般", "es-419": "Normal"}),
    "flying": (3, {"ja-hrkt": "ひこう", "ko": "비행", "zh-hant": "飛行", "fr": "Vol", "de": "Flug", "es": "Volador", "it": "Volante", "en": "Flying", "ja": "ひこう", "zh-hans": "飞行", "es-419": "Volador"}),
    "poison": (4, {"ja-hrkt": "どく", "ko": "독", "zh-hant": "毒", "fr": "Poison", "de": "Gift", "es": "Veneno", "it": "Veleno", "en": "Poison", "ja": "どく", "zh-hans": "毒", "es-419": "Veneno"}),
    "fire": (10, {"ja-hrkt": "ほのお", "ko": "불꽃", "zh-hant": "火", "fr": "Feu", "de": "Feuer", "es": "Fuego", "it": "Fuoco", "en": "Fire", "ja": "ほのお", "zh-hans": "火", "es-419": "Fuego"}),
    "water": (11, {"ja-hrkt": "みず", "ko": "물", "zh-hant": "水", "fr": "Eau", "de": "Wasser", "es": "Agua", "it": "Acqua", "en": "Water", "ja": "みず", "zh-hans": "水", "es-419": "Agua"}),
    "grass": (12, {"ja-hrkt": "くさ", "ko": "풀", "zh-hant": "草", "fr": "Plante", "de": "Pflanze", "es": "Planta", "it": "Erba", "en": "Grass", "ja": "くさ", "zh-hans": "草", "es-419": "Planta"}),
    "electric": (13, {"ja-hrkt": "でんき", "ko": "전기", "zh-hant": "電", "fr": "Électrik", "de": "Elektro", "es": "Eléctrico", "it": "Elettro", "en": "Electric", "ja": "でんき", "zh-hans": "电", "es-419": "Eléctrico"}),
}
ABILITY_NAMES = {  # name: (id, {language: name})
    "static": (9, {"ja-hrkt": "せいでんき", "ko": "정전기", "zh-hant": "靜電", "fr": "Statik", "de": "Statik", "es": "Electricidad Estática", "it": "Statico", "en": "Static", "ja": "せいでんき", "zh-hans": "静电", "es-419": "Electricidad Estática"}),
    "lightning-rod": (31, {"ja-hrkt": "ひらいしん", "ko": "피뢰침", "zh-hant": "避雷針", "fr": "Paratonnerre", "de": "Blitzfänger", "es": "Pararrayos", "it": "Parafulmine", "en": "Lightning Rod", "ja": "ひらいしん", "zh-hans": "避雷针", "es-419": "Pararrayos"}),
}
STAT_NAMES = {  # name: (id, {language: name})
    "hp": (1, {"ja-hrkt": "HP", "ko": "HP", "zh-hant": "HP", "fr": "PV", "de": "KP", "es": "PS", "it": "PS", "en": "HP", "zh-hans": "HP", "es-419": "PS"}),
    "attack": (2, {"ja-hrkt": "こうげき", "ko": "공격", "zh-hant": "攻擊", "fr": "Attaque", "de": "Angriff", "es": "Ataque", "it": "Attacco", "en": "Attack", "zh-hans": "攻击", "es-419": "Ataque"}),
    "defense": (3, {"ja-hrkt": "ぼうぎょ", "ko": "방어", "zh-hant": "防禦", "fr": "Défense", "de": "Verteidigung", "es": "Defensa", "it": "Difesa", "en": "Defense", "zh-hans": "防御", "es-419": "Defensa"}),
    "special-attack": (4, {"ja-hrkt": "とくこう", "ko": "특수공격", "zh-hant": "特攻", "fr": "Attaque Spéciale", "de": "Spezialangriff", "es": "Ataque Especial", "it": "Attacco Speciale", "en": "Special Attack", "zh-hans": "特攻", "es-419": "Ataque Especial"}),
    "special-defense": (5, {"ja-hrkt": "とくぼう", "ko": "특수방어", "zh-hant": "特防", "fr": "Défense Spéciale", "de": "Spezialverteidigung", "es": "Defensa Especial", "it": "Difesa Speciale", "en": "Special Defense", "zh-hans": "特防", "es-419": "Defensa Especial"}),
    "speed": (6, {"ja-hrkt": "すばやさ", "ko": "스피드", "zh-hant": "速度", "fr": "Vitesse", "de": "Initiative", "es": "Velocidad", "it": "Velocità", "en": "Speed", "zh-hans": "速度", "es-419": "Velocidad"}),
}
FORM_NAMES = {  # a form in FORMS: (form_name, is_default, {language: names}, {language: form_names})
    "deoxys-attack": ("attack", True, {"fr": "Deoxys Attaque", "de": "Deoxys (Angriff)", "en": "Attack Deoxys"},
                      {"ja-hrkt": "アタックフォルム", "ko": "어택폼", "zh-hant": "攻擊形態", "fr": "Forme Attaque", "de": "Angriffsform", "es": "Forma Ataque", "it": "Forma Attacco", "en": "Attack Forme", "ja": "アタックフォルム", "zh-hans": "攻击形态", "es-419": "Forma Ataque"}),
    "venusaur-mega": ("mega", True, {"fr": "Méga-Florizarre", "de": "Mega-Bisaflor", "en": "Mega Venusaur"},
                      {"ja-hrkt": "メガフシギバナ", "ko": "메가이상해꽃", "zh-hant": "超級妙蛙花", "fr": "Méga-Florizarre", "de": "Mega-Form", "es": "Mega-Venusaur", "it": "MegaVenusaur", "en": "Mega Venusaur", "ja": "メガフシギバナ", "zh-hans": "超级妙蛙花", "es-419": "Mega-Venusaur"}),
}

lock = threading.Lock()
settings = {"latency_ms": 0, "latency_prefix": "", "offline": False, "fail_status": 0, "max_age": 86400,
            "evil_sprite": False, "retry_after": 0, "fail_count": None, "total": 0,
            "fault_500": 0.0, "fault_cut": 0.0, "fault_429": 0.0, "seed": 1, "redirect_sprites": "",
            "sprite_base": "", "sprite_host_offline": False, "oversize": {}, "oversize_no_length": False,
            "cache_control": "", "hostile": False, "huge_sprites": 0, "no_sprite": []}
in_flight = [0]  # the live count of GETs being answered; reset_stats never touches it
SPRITE_PORT = [None]
rng = random.Random(1)
stats = {}


def reset_stats():
    with lock:
        stats.clear()
        stats.update({"requests": 0, "by_kind": {}, "gzip": 0, "not_modified": 0, "connections": 0,
                      "user_agents": [], "if_none_match": 0, "faults": {"500": 0, "cut": 0, "429": 0},
                      "abandoned": 0, "by_listener": {"api": 0, "sprites": 0},
                      "in_flight": in_flight[0], "max_in_flight": 0,
                      "hostile": {"oversized": 0, "endless": 0, "endless_gone": 0, "gzip_bomb": 0,
                                  "png_bomb": 0, "gif_lie": 0}})


reset_stats()


def png(rgb, size=8):
    raw = b"".join(b"\x00" + bytes(rgb + (255,)) * size for _ in range(size))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


HUGE_PNGS = {}
_huge_lock = threading.Lock()


def huge_png(side):
    """A valid side×side RGBA PNG of one colour, built once per size (zlib at level 9: a 4096
    one is ~64 KB on the wire for 64 MB of pixels)."""
    with _huge_lock:
        if side not in HUGE_PNGS:
            row = b"\x00" + bytes((200, 60, 40, 255)) * side
            z = zlib.compressobj(9)
            data = b"".join(z.compress(row) for _ in range(side)) + z.flush()
            def chunk(kind, body):
                return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
            HUGE_PNGS[side] = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
                               + chunk(b"IDAT", data) + chunk(b"IEND", b""))
        return HUGE_PNGS[side]


# Hostile mode (see the docstring). Every payload goes into every human text field.
HOSTILE_PAYLOADS = [
    "\x1b]52;c;aGFja2Vk\x07",                  # OSC 52: writes "hacked" to the clipboard
    "\x1b[2J",                                  # clears the screen
    "\u009b31m",                                # C1 CSI: red, on terminals that take 8-bit C1
    "\x07",                                     # BEL
    "\u202e",                                   # RIGHT-TO-LEFT OVERRIDE
    "\u2066",                                   # LEFT-TO-RIGHT ISOLATE
    "\x08",                                     # backspace
    "\x7f",                                     # DEL
    "\n<0>forged",                              # a forged emergency-priority journal line
    "${exec touch /tmp/pwned-conky}",           # conky
    "%{A1:touch /tmp/pwned-polybar:}x%{A}",     # polybar action tag
    '<b>bold</b> & <span foreground="red">',    # Pango markup
    "&amp;",                                    # an entity: must be shown as typed
]
HOSTILE_NAMES = ["evil\x1b[2J", "../../etc/passwd", "a" * 300, "Pika<b>", "${exec touch /tmp/pwned-conky}",
                 "%{A1:touch /tmp/pwned-polybar:}x%{A}", "mew\ntwo", "\u202eevil"]
HOSTILE_FIRST_ID = 99001
HOSTILE_MAX_AGES = ["-1", "inf", "nan", "99999999999999999999"]  # by id % 4; no id: "inf"
OVERSIZED_ID, ENDLESS_ID, GZIP_BOMB_ID, PNG_BOMB_ID, GIF_LIE_ID = 21, 22, 23, 24, 26
OVERSIZED_BYTES = 5 << 20
ENDLESS_SECONDS = 600
BOMB_BYTES = 1 << 30
_bomb = {}
_bomb_lock = threading.Lock()


def hostile_text(legit, key):
    """`legit` inside every payload, rotated by `key` (one field of one resource)."""
    k = zlib.crc32(key.encode()) % len(HOSTILE_PAYLOADS)
    parts = HOSTILE_PAYLOADS[k:] + HOSTILE_PAYLOADS[:k]
    return parts[0] + legit + "".join(parts[1:])


def hostile_json(body):
    """Raw UTF-8: C1, DEL and bidi characters as bytes; C0 escaped, as JSON requires."""
    return json.dumps(body, ensure_ascii=False).encode()


def gzip_bomb(body):
    """gzip of body[:1] + BOMB_BYTES spaces + body[1:] (still the JSON body once inflated), built
    once: the spaces are one 16 MiB deflate block, after a full flush, repeated."""
    with _bomb_lock:
        if body in _bomb:
            return _bomb[body]
        block_size = 16 << 20
        spaces = b" " * block_size
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        head = c.compress(body[:1]) + c.flush(zlib.Z_FULL_FLUSH)
        # After a full flush nothing refers back, so the same input gives the same bytes.
        block = c.compress(spaces) + c.flush(zlib.Z_FULL_FLUSH)
        tail = c.compress(body[1:]) + c.flush()
        crc = zlib.crc32(body[:1])
        for _ in range(BOMB_BYTES // block_size):
            crc = zlib.crc32(spaces, crc)
        crc = zlib.crc32(body[1:], crc)
        size = len(body) + BOMB_BYTES
        out = (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + head + block * (BOMB_BYTES // block_size) + tail
               + struct.pack("<II", crc, size & 0xFFFFFFFF))
        _bomb.clear()
        _bomb[body] = out
        return out


def png_bomb():
    """A PNG whose IHDR claims 100000×100000 RGBA: valid signature and CRCs, one row of data."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    side = 100000
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" + b"\xff" * (side * 4), 9)) + chunk(b"IEND", b""))


def gif_lie(i):
    """Screen 8×8; frame 1 claims 65535×65535 and has 64 pixels; frame 2 at (60000, 60000) claims
    8×8 and has 4096 pixels. Blocks, lengths and trailer are all well formed."""
    table = bytes([(i * 37) % 256, (i * 91) % 256, (i * 53) % 256, 255, 255, 255, 0, 0, 0, 0, 0, 0])
    out = b"GIF89a" + struct.pack("<HHBBB", 8, 8, 0x81, 0, 0) + table
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for (x, y, w, h), pixels in (((0, 0, 65535, 65535), 64), ((60000, 60000, 8, 8), 4096)):
        out += b"\x21\xf9\x04\x04\x0a\x00\x00\x00"
        out += b"\x2c" + struct.pack("<HHHHB", x, y, w, h, 0)
        out += bytes([2]) + lzw_block([1] * pixels, 2)
    return out + b"\x3b"


def path_id(path):
    """The Pokémon id a path names (a number, or a name looked up), or None."""
    m = re.match(r"^/(?:api/v2/(?:pokemon|pokemon-species)|sprites(?:/anim|/shiny)?)/([^/.]+)(?:\.png|\.gif)?/?$", path)
    if not m:
        return None
    key = m.group(1).lower()
    if key.isdigit():
        return int(key)
    found = lookup(key)
    return found[0] if found else None


# Names from the project's bundled table, by id, when --every-species lists every species.
TABLE_NAMES = {}


def list_every_species():
    """NAMES and FORMS become every species and form of Sources/…/BundledNamesTable.swift (the
    project's own copy of PokeAPI's names), with their names in every language, for the desktop
    shells' test: "pika" finds Pikachu, Tadbulb (ズピカ), Pikipek, Raichu and Pichu."""
    table = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Sources/PokedexCore/Search/BundledNamesTable.swift")
    text = open(table, encoding="utf-8").read()
    columns = re.search(r"static let columns: \[String\] = \[(.*?)\]", text).group(1).replace('"', "").split(", ")
    rows = text.split('#"""\n', 1)[1].split('\n"""#', 1)[0].split("\n")
    species, forms = [], []
    for row in rows:
        ident, sid, identifier, *names = row.split("\t")
        ident, sid = int(ident), int(sid)
        TABLE_NAMES[ident] = {lang: name or names[0] for lang, name in zip(columns, names + [""] * len(columns))}
        if ident == sid:
            species.append((ident, identifier))
        else:
            forms.append((ident, identifier, sid))
    assert [i for i, _ in species] == list(range(1, len(species) + 1))
    NAMES[:] = [n for _, n in species]
    FORMS[:] = forms
    # Rows as real as the live API's: every Pokémon's types, every species' genus and every
    # type's names in every language (every-species.json, tools/gen-mock-species.py).
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "every-species.json"), encoding="utf-8") as f:
        data = json.load(f)
    TYPES.update({int(i): t for i, t in data["types"].items()})
    NO_SPRITE.update(data["no_sprite"])
    EVERY_GENERA.update({int(i): g for i, g in data["genera"].items()})
    for n, (name, names) in enumerate(sorted(data["type_names"].items())):
        TYPE_NAMES.setdefault(name, (100 + n, names))


# Every species' genus by language, and the forms PokeAPI draws no sprite of, with --every-species.
EVERY_GENERA = {}
NO_SPRITE = set()


def entries():
    real = [(i + 1, n) for i, n in enumerate(NAMES)]
    invented = [(i, f"mon-{i}") for i in range(len(NAMES) + 1, settings["total"] - len(FORMS) + 1)]
    return real + invented + [(i, n) for i, n, _ in FORMS]


def lookup(key):
    m = re.match(r"^mon-(\d+)$", key)
    if m or key.isdigit():
        i = int(m.group(1) if m else key)
        if len(NAMES) < i <= settings["total"] - len(FORMS):
            return i, f"mon-{i}"
    for i, n in entries()[:len(NAMES)] + [(i, n) for i, n, _ in FORMS]:
        if key == str(i) or key == n:
            return i, n
    return None


def pokemon_body(base, ident, name):
    species_id = next((s for i, _, s in FORMS if i == ident), ident)
    types = TYPES.get(ident, ["normal"])
    sprites = settings["sprite_base"] or base
    sprite = f"{sprites}/sprites/{ident}.png"
    if ident == 44 and settings["evil_sprite"]:
        sprite = "http://evil.invalid/sprites/44.png"
    # As PokeAPI draws none of some forms (Partner Eevee, Koraidon's builds): their species' stands in.
    if ident in settings["no_sprite"] or name in NO_SPRITE:
        sprite = None
    return {
        "id": ident, "name": name, "height": 4 + ident % 10, "weight": 60 + ident,
        "base_experience": 112, "order": ident, "is_default": True,
        "forms": [{"name": name, "url": f"{base}/api/v2/pokemon-form/{ident}/"}],
        "types": [{"slot": s + 1, "type": {"name": t, "url": f"{base}/api/v2/type/{s}/"}} for s, t in enumerate(types)][::-1],
        "abilities": [{"ability": {"name": "static", "url": f"{base}/api/v2/ability/9/"}, "is_hidden": False, "slot": 1},
                      {"ability": {"name": "lightning-rod", "url": f"{base}/api/v2/ability/31/"}, "is_hidden": True, "slot": 3}],
        "stats": [{"base_stat": v, "effort": 0, "stat": {"name": k, "url": f"{base}/api/v2/stat/{STAT_NAMES[k][0]}/"}}
                  for k, v in [("hp", 35), ("attack", 55), ("defense", 40), ("special-attack", 50),
                               ("special-defense", 50), ("speed", 90)]],
        "sprites": {"front_default": sprite, "back_default": None, "front_shiny": f"{sprites}/sprites/shiny/{ident}.png",
                    "versions": {"generation-v": {"black-white": {"animated": {
                        "front_default": f"{sprites}/sprites/anim/{ident}.gif" if ident < 10000 else None}}}}},
        "species": {"name": name.split("-")[0], "url": f"{base}/api/v2/pokemon-species/{species_id}/"},
        # On the sprite host, as PokeAPI's are on raw.githubusercontent.com; forms have none here.
        "cries": {"latest": f"{sprites}/cries/{ident}.ogg" if ident < 10000 else None, "legacy": None},
        "moves": [{"move": {"name": f"move-{m}", "url": f"{base}/api/v2/move/{m}/"}} for m in range(50)],
    }


def localized(base, texts):
    """{language: text} as PokeAPI lists it: [{"name", "language": {"name", "url"}}], in order."""
    return [{"name": text, "language": {"name": lang, "url": f"{base}/api/v2/language/{LANGUAGES[lang][0]}/"}}
            for lang, text in texts.items()]


# Every family, from PokeAPI's data (tools/gen-mock-chains.py): chain id → its first link.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "evolution-chains.json"), encoding="utf-8") as _f:
    CHAINS = {c["id"]: c["chain"] for c in json.load(_f)}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cry.ogg"), "rb") as _f:
    CRY = _f.read()
SPECIES_CHAIN = {}
def _index_chain(cid, link):
    SPECIES_CHAIN[link[1]] = cid
    for child in link[3]:
        _index_chain(cid, child)
for _cid, _link in CHAINS.items():
    _index_chain(_cid, _link)

# Every key of an evolution_details entry, as PokeAPI sends it when unset.
DETAIL_DEFAULTS = {"base_form": None, "evolved_form": None, "gender": None, "held_item": None, "is_default": True, "item": None,
                   "known_move": None, "known_move_type": None, "location": None, "min_affection": None, "min_beauty": None,
                   "min_damage_taken": None, "min_happiness": None, "min_level": None, "min_move_count": None, "min_steps": None,
                   "near_special_rock": False, "needs_multiplayer": False, "needs_overworld_rain": False, "party_species": None,
                   "party_type": None, "region": None, "relative_physical_stats": None, "time_of_day": "", "trade_species": None,
                   "trigger": None, "turn_upside_down": False, "used_move": None, "version_group": None}
RESOURCE_KINDS = {"held_item": "item", "item": "item", "known_move": "move", "used_move": "move", "known_move_type": "type",
                  "party_type": "type", "location": "location", "party_species": "pokemon-species",
                  "trade_species": "pokemon-species", "region": "region", "trigger": "evolution-trigger"}


def chain_body(base, cid):
    """GET /evolution-chain/{id}: the family in PokeAPI's shape."""
    def link(l):
        name, sid, details, children = l
        out_details = []
        for d in details:
            e = dict(DETAIL_DEFAULTS)
            for k, v in d.items():
                if k == "version_group":
                    e[k] = {"name": f"version-group-{v}", "url": f"{base}/api/v2/version-group/{v}/"}
                elif k in RESOURCE_KINDS:
                    e[k] = {"name": v, "url": f"{base}/api/v2/{RESOURCE_KINDS[k]}/{v}/"}
                else:
                    e[k] = v
            out_details.append(e)
        return {"evolution_details": out_details, "evolves_to": [link(c) for c in children], "is_baby": False,
                "species": {"name": name, "url": f"{base}/api/v2/pokemon-species/{sid}/"}}
    return {"baby_trigger_item": None, "chain": link(CHAINS[cid]), "id": cid}


def species_body(base, ident, name, hostile=False):
    real = SPECIES_TEXT.get(ident)
    body = {
        "id": ident, "name": name,
        "genera": [{"genus": "ネズミポケモン", "language": {"name": "ja", "url": ""}},
                   {"genus": "Mouse Pokémon" if ident == 25 else f"Test Pokémon {ident}", "language": {"name": "en", "url": ""}}],
        "flavor_text_entries": [
            {"flavor_text": "Old text.", "language": {"name": "en", "url": ""}, "version": {"name": "red", "url": ""}},
            {"flavor_text": "Texte.", "language": {"name": "fr", "url": ""}, "version": {"name": "x", "url": ""}},
            {"flavor_text": "It keeps its tail\nraised to monitor\fits surroundings.", "language": {"name": "en", "url": ""},
             "version": {"name": "shield", "url": ""}}],
        "names": [{"name": name.capitalize(), "language": {"name": "en", "url": ""}},
                  {"name": real["names"]["ja-hrkt"] if real else name, "language": {"name": "ja-hrkt", "url": ""}}]
                 + ([{"name": "Glurak", "language": {"name": "de", "url": ""}}] if ident == 6 else []),
    }
    if ident in SPECIES_CHAIN:
        body["evolution_chain"] = {"url": f"{base}/api/v2/evolution-chain/{SPECIES_CHAIN[ident]}/"}
    if ident in TABLE_NAMES:
        body["names"] = localized(base, {k: v for k, v in TABLE_NAMES[ident].items() if k in LANGUAGES})
    if ident in EVERY_GENERA:
        body["genera"] = [{"genus": g, "language": item["language"]}
                          for g, item in zip(EVERY_GENERA[ident].values(), localized(base, EVERY_GENERA[ident]))]
    if real:
        # After the entries above, which stay as they are: the English genus stays the only one
        # and the shield text the last English one; a language already named is not named twice.
        have = {n["language"]["name"] for n in body["names"]}
        body["names"] += localized(base, {k: v for k, v in real["names"].items() if k not in have})
        if ident not in EVERY_GENERA:
            body["genera"] += [{"genus": g, "language": item["language"]}
                               for g, item in zip(real["genera"].values(), localized(base, real["genera"]))]
        body["flavor_text_entries"] += [{"flavor_text": text, "language": item["language"], "version": {"name": version, "url": ""}}
                                        for (version, text), item in zip(real["flavor"].values(), localized(base, real["flavor"]))]
    if hostile:
        for field, items in (("genus", body["genera"]), ("flavor_text", body["flavor_text_entries"]), ("name", body["names"])):
            for k, item in enumerate(items):
                item[field] = hostile_text(item[field], f"species/{ident}/{field}/{k}")
    return body


def filter_body(base, kind, key, hostile=False):
    """/type and /generation, shaped like PokeAPI's: lists, a type's pokemon, a generation's species.
    Hostile: a type's or a generation's body gains localized `names`, hostile."""
    body = plain_filter_body(base, kind, key)
    if hostile and key:
        body["names"] = [{"name": hostile_text(legit, f"{kind}/{key}/{lang}"), "language": {"name": lang, "url": ""}}
                         for lang, legit in (("en", body["name"].replace("-", " ").title()), ("ja-hrkt", "ポケモン"))]
    return body


def plain_filter_body(base, kind, key):
    if kind == "type":
        names = sorted({t for ts in TYPES.values() for t in ts} | {"normal"})
        if not key:
            return {"count": len(names), "results": [{"name": n, "url": f"{base}/api/v2/type/{n}/"} for n in names]}
        ids = [i for i, _ in entries() if key in TYPES.get(i, ["normal"])]
        body = {"name": key, "pokemon": [{"pokemon": {"name": lookup(str(i))[1], "url": f"{base}/api/v2/pokemon/{i}/"}, "slot": 1} for i in ids]}
        if key in TYPE_NAMES:
            body["names"] = localized(base, TYPE_NAMES[key][1])
        return body
    if not key:
        return {"count": 2, "results": [{"name": "generation-i", "url": f"{base}/api/v2/generation/1/"},
                                        {"name": "generation-iii", "url": f"{base}/api/v2/generation/3/"}]}
    gid = {"generation-i": 1, "generation-iii": 3}.get(key, int(key) if key.isdigit() else 0)
    species = [(i, n) for i, n in entries() if i <= 151] if gid == 1 else [(386, "deoxys")]
    return {"id": gid, "name": f"generation-{gid}", "pokemon_species": [{"name": n, "url": f"{base}/api/v2/pokemon-species/{i}/"} for i, n in species]}


def names_body(base, resource, key, hostile=False):
    """/ability, /stat, /pokemon-form and /language (see the docstring), `key` a name or an id;
    None for an unknown one (a 404). Hostile: every names and form_names entry, hostile."""
    if resource == "language" and not key:
        return {"count": len(LANGUAGES), "results": [{"name": n, "url": f"{base}/api/v2/language/{v[0]}/"}
                                                     for n, v in LANGUAGES.items()]}
    if resource == "pokemon-form":
        found = lookup(key)
        if found is None:
            return None
        ident, name = found
        form_name, is_default, names, form_names = FORM_NAMES.get(name, ("", True, {}, {}))
        body = {"id": ident, "name": name, "form_name": form_name, "is_default": is_default,
                "names": localized(base, names), "form_names": localized(base, form_names),
                "pokemon": {"name": name, "url": f"{base}/api/v2/pokemon/{ident}/"}}
    else:
        table = {"ability": ABILITY_NAMES, "stat": STAT_NAMES, "language": LANGUAGES}[resource]
        name = next((n for n, v in table.items() if key in (n, str(v[0]))), None)
        if name is None:
            return None
        body = {"id": table[name][0], "name": name}
        if resource == "language":
            body.update(zip(("iso639", "iso3166", "official"), table[name][1:4]))
        body["names"] = localized(base, table[name][-1])
    if hostile:
        for field in ("names", "form_names"):
            for k, item in enumerate(body.get(field, [])):
                item["name"] = hostile_text(item["name"], f"{resource}/{body['name']}/{field}/{k}")
    return body


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    counted = False       # this GET is counted in in_flight
    chunked_next = False  # the next answer goes chunked, with no Content-Length (oversize_no_length)
    cut_next = False      # the next answer is cut off halfway (fault_cut)
    timeout = 300         # a connection that says nothing for 5 min (a stalled TLS handshake) is closed

    def log_message(self, *a):
        pass

    def setup(self):
        super().setup()
        with lock:
            stats["connections"] += 1

    def base(self):
        tls = getattr(self.server, "tls", False) or (self.headers.get("X-Forwarded-Proto") or "").strip().lower() == "https"
        return f"{'https' if tls else 'http'}://{self.headers.get('Host')}"

    def cache_control(self):
        if settings["cache_control"]:
            return str(settings["cache_control"])
        if settings["hostile"]:
            ident = path_id(urlsplit(self.path).path)
            return f"public, max-age={'inf' if ident is None else HOSTILE_MAX_AGES[ident % 4]}"
        age = settings["max_age"]
        return f"public, max-age={age if isinstance(age, str) else json.dumps(age)}"

    def oversized(self, kind, body):
        """The body padded to the size `oversize` names for its kind (JSON stays valid)."""
        size = int((settings["oversize"] or {}).get(kind, 0))
        if size <= len(body):
            return body
        if body[:1] == b"{":
            return body[:-1] + b', "padding": "' + b"x" * (size - len(body)) + b'"}'
        return body + b"\0" * (size - len(body))

    def send(self, status, body=b"", ctype="application/json", extra=None, compress=True):
        # What get() asked of this answer, cleared here so that it never reaches the next answer
        # on the same keep-alive connection (a 304 has no body to cut or to send chunked).
        chunked, cut = self.chunked_next, self.cut_next
        self.chunked_next = self.cut_next = False
        etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
        if status == 200 and self.headers.get("If-None-Match") == etag:
            with lock:
                stats["not_modified"] += 1
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Cache-Control", self.cache_control())
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        payload = body
        if compress and status == 200 and ctype == "application/json" and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            payload = gzip.compress(body)
            with lock:
                stats["gzip"] += 1
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(payload)))
        if status == 200:
            self.send_header("ETag", etag)
            self.send_header("Cache-Control", self.cache_control())
            if payload is not body:
                self.send_header("Content-Encoding", "gzip")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if cut:
            # A body cut off halfway: the length promised, half of it sent, then the connection closed.
            half = payload[:len(payload) // 2]
            self.wfile.write(b"%x\r\n" % len(payload) + half if chunked else half)
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if chunked:
            try:
                for k in range(0, len(payload), 65536):
                    part = payload[k:k + 65536]
                    self.wfile.write(b"%x\r\n" % len(part) + part + b"\r\n")
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except OSError:
                self.close_connection = True
            return
        self.wfile.write(payload)

    def sized(self, kind, body):
        """`oversize` for this kind; chunked, with no length, under `oversize_no_length`."""
        out = self.oversized(kind, body)
        if out is not body and settings["oversize_no_length"]:
            self.chunked_next = True
        return out

    def hostile_count(self, attack):
        with lock:
            stats["hostile"][attack] += 1

    def endless(self, body):
        """A chunked body that never ends: a valid JSON start, then padding every 0.1 s until the
        client goes away (checked before every chunk) or ENDLESS_SECONDS pass."""
        self.hostile_count("endless")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", self.cache_control())
        self.end_headers()
        self.close_connection = True
        start = body[:-1] + b', "padding": "'
        part = b"x" * 1024
        deadline = time.monotonic() + ENDLESS_SECONDS
        try:
            self.wfile.write(b"%x\r\n" % len(start) + start + b"\r\n")
            self.wfile.flush()
            while time.monotonic() < deadline:
                time.sleep(0.1)
                if self.peer_gone():
                    raise ConnectionResetError
                self.wfile.write(b"%x\r\n" % len(part) + part + b"\r\n")
                self.wfile.flush()
        except OSError:
            self.hostile_count("endless_gone")
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def peer_gone(self):
        """Whether the client closed its end (a cancelled transfer) while the answer waited."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) or b"{}"
        data = json.loads(raw)
        if self.path == "/__control" and isinstance(data.get("max_age"), float):
            # Written verbatim: 1e9 stays "1e9", not 1000000000.0 (Infinity and NaN too).
            data["max_age"] = json.loads(raw, parse_float=str, parse_constant=str)["max_age"]
        if self.path == "/__control":
            with lock:
                settings.update(data)
                if "seed" in data:
                    rng.seed(data["seed"])
            return self.send(200, json.dumps(settings).encode())
        if self.path == "/__stats/reset":
            reset_stats()
            return self.send(200, b"{}")
        self.send(404, b"Not Found", "text/plain")

    def do_HEAD(self):
        # The service's probes: a server that is offline does not answer them either.
        listener = getattr(self.server, "listener", "api")
        with lock:
            s = dict(settings)
        if s["offline"] or (listener == "sprites" and s["sprite_host_offline"]):
            self.close_connection = True
            self.connection.shutdown(2)
            return
        self.send_error(501, "Unsupported method ('HEAD')")

    def do_GET(self):
        self.counted = False
        self.chunked_next = self.cut_next = False
        try:
            self.get()
        finally:
            # Every way out of get(): answers, early returns, faults, exceptions.
            if self.counted:
                with lock:
                    in_flight[0] -= 1
                    stats["in_flight"] = in_flight[0]

    def get(self):
        url = urlsplit(self.path)
        listener = getattr(self.server, "listener", "api")
        if url.path == "/__stats":
            with lock:
                snapshot = json.dumps(stats).encode()
            # Sent outside the lock: send() takes it too (gzip, 304 counts).
            return self.send(200, snapshot)
        if url.path.startswith("/api/v2/pokemon-species/"):
            kind = "pokemon-species"
        elif url.path.startswith("/api/v2/pokemon/"):
            kind = "pokemon-list" if url.path.rstrip("/") == "/api/v2/pokemon" else "pokemon"
        elif url.path.startswith("/api/v2/type") or url.path.startswith("/api/v2/generation"):
            kind = "filters"
        elif re.match(r"^/api/v2/(ability|stat|pokemon-form|language)(/|$)", url.path):
            kind = "names"
        elif url.path.startswith("/api/v2/evolution-chain/"):
            kind = "evolution-chain"
        elif url.path.startswith("/cries/"):
            kind = "cry"
        elif url.path.startswith("/sprites/anim/"):
            kind = "animated-sprite"
        elif url.path.startswith("/sprites/"):
            kind = "sprite"
        else:
            kind = "other"
        with lock:
            stats["requests"] += 1
            stats["by_kind"][kind] = stats["by_kind"].get(kind, 0) + 1
            ua = self.headers.get("User-Agent") or ""
            if ua not in stats["user_agents"]:
                stats["user_agents"].append(ua)
            if self.headers.get("If-None-Match"):
                stats["if_none_match"] += 1
            stats["by_listener"][listener] += 1
            # In flight from here (where the request is counted) until do_GET's finally.
            in_flight[0] += 1
            self.counted = True
            stats["in_flight"] = in_flight[0]
            stats["max_in_flight"] = max(stats["max_in_flight"], in_flight[0])
            s = dict(settings)
        if s["latency_ms"] and url.path.startswith(s["latency_prefix"] or "/"):
            time.sleep(s["latency_ms"] / 1000)
            if self.peer_gone():
                # The client cancelled while it waited: it closed the connection.
                with lock:
                    stats["abandoned"] += 1
                self.close_connection = True
                return
        if s["offline"] or (listener == "sprites" and s["sprite_host_offline"]):
            self.close_connection = True
            self.connection.shutdown(2)
            return
        failing = bool(s["fail_status"])
        if failing and s["fail_count"] is not None:
            with lock:
                failing = settings["fail_count"] > 0
                settings["fail_count"] -= 1 if failing else 0
        if failing:
            extra = {"Retry-After": str(s["retry_after"])} if s["retry_after"] else None
            return self.send(int(s["fail_status"]), b"<h1>failure</h1>", "text/html", extra)
        if kind != "other":
            with lock:
                draw = rng.random()
            fault = None
            if draw < s["fault_500"]:
                fault = "500"
            elif draw < s["fault_500"] + s["fault_cut"]:
                fault = "cut"
            elif draw < s["fault_500"] + s["fault_cut"] + s["fault_429"]:
                fault = "429"
            if fault:
                with lock:
                    stats["faults"][fault] += 1
                if fault == "500":
                    return self.send(500, b"<h1>internal error</h1>", "text/html")
                if fault == "429":
                    return self.send(429, b"slow down", "text/plain", {"Retry-After": str(s["retry_after"] or 1)})
                self.cut_next = True
        if s["redirect_sprites"] and kind in ("sprite", "animated-sprite") and "redirected" not in url.query:
            return self.send(302, b"", "text/plain", {"Location": s["redirect_sprites"] + url.path + "?redirected=1"})
        base = self.base()
        if kind == "pokemon-list":
            q = parse_qs(url.query)
            limit = int(q.get("limit", ["20"])[0])
            offset = int(q.get("offset", ["0"])[0])
            all_entries = entries()
            if s["hostile"]:
                all_entries = all_entries + [(HOSTILE_FIRST_ID + k, n) for k, n in enumerate(HOSTILE_NAMES)]
            page = [{"name": n, "url": f"{base}/api/v2/pokemon/{i}/"} for i, n in all_entries[offset:offset + limit]]
            body = {"count": len(all_entries), "next": None, "previous": None, "results": page}
            return self.send(200, self.sized(kind, (hostile_json if s["hostile"] else dumps)(body)))
        m = re.match(r"^/api/v2/(type|generation)/?([^/]*)/?$", url.path)
        if m:
            body = filter_body(base, m.group(1), m.group(2), s["hostile"])
            return self.send(200, self.sized(kind, (hostile_json if s["hostile"] else dumps)(body)))
        m = re.match(r"^/api/v2/(ability|stat|pokemon-form|language)(?:/([^/]*)/?)?$", url.path)
        if m:
            body = names_body(base, m.group(1), (m.group(2) or "").lower(), s["hostile"])
            if body is None:
                return self.send(404, b"Not Found", "text/plain")
            return self.send(200, self.sized(kind, (hostile_json if s["hostile"] else dumps)(body)))
        m = re.match(r"^/api/v2/evolution-chain/(\d+)/?$", url.path)
        if m:
            if int(m.group(1)) not in CHAINS:
                return self.send(404, b"Not Found", "text/plain")
            return self.send(200, self.sized(kind, dumps(chain_body(base, int(m.group(1))))))
        m = re.match(r"^/api/v2/(pokemon|pokemon-species)/([^/]+)/?$", url.path)
        if m:
            found = lookup(m.group(2).lower())
            if m.group(1) == "pokemon-species" and found is None and m.group(2) == "386":
                found = (386, "deoxys")
            if found is None:
                return self.send(404, b"Not Found", "text/plain")
            if not s["hostile"]:
                body = pokemon_body(base, *found) if m.group(1) == "pokemon" else species_body(base, *found)
                return self.send(200, self.sized(kind, dumps(body)))
            if m.group(1) == "pokemon-species":
                return self.send(200, self.sized(kind, hostile_json(species_body(base, *found, hostile=True))))
            body = hostile_json(pokemon_body(base, *found))
            if found[0] == OVERSIZED_ID:
                self.hostile_count("oversized")
                return self.send(200, body[:-1] + b', "padding": "' + b"x" * OVERSIZED_BYTES + b'"}', compress=False)
            if found[0] == ENDLESS_ID:
                return self.endless(body)
            if found[0] == GZIP_BOMB_ID:
                self.hostile_count("gzip_bomb")
                return self.send(200, gzip_bomb(body), compress=False, extra={"Content-Encoding": "gzip"})
            return self.send(200, self.sized(kind, body))
        if s.get("huge_sprites") and re.match(r"^/sprites/(shiny/)?\d+\.png$", url.path):
            return self.send(200, huge_png(int(s["huge_sprites"])), "image/png")
        m = re.match(r"^/sprites/(\d+)\.png$", url.path)
        if m:
            i = int(m.group(1))
            if s["hostile"] and i == PNG_BOMB_ID:
                self.hostile_count("png_bomb")
                return self.send(200, png_bomb(), "image/png")
            return self.send(200, self.sized(kind, png(((i * 37) % 256, (i * 91) % 256, (i * 53) % 256))), "image/png")
        m = re.match(r"^/sprites/shiny/(\d+)\.png$", url.path)
        if m:
            i = int(m.group(1))
            return self.send(200, self.sized(kind, png((255 - (i * 37) % 256, 255 - (i * 91) % 256, 255 - (i * 53) % 256))),
                             "image/png")
        m = re.match(r"^/cries/(\d+)\.ogg$", url.path)
        if m:
            # Every cry is the same short synthetic one (cry.ogg: 0.35 s, a rising tone, Vorbis).
            return self.send(200, self.sized(kind, CRY), "audio/ogg")
        m = re.match(r"^/sprites/anim/(\d+)\.gif$", url.path)
        if m:
            if s["hostile"] and int(m.group(1)) == GIF_LIE_ID:
                self.hostile_count("gif_lie")
                return self.send(200, gif_lie(GIF_LIE_ID), "image/gif")
            return self.send(200, self.sized(kind, gif(int(m.group(1)))), "image/gif")
        self.send(404, b"Not Found", "text/plain")


def dumps(body):
    return json.dumps(body).encode()


def gif(i):
    """Two 8x8 frames, each one colour of a 4-colour table (LZW with a 3-bit code size)."""
    table = bytes([(i * 37) % 256, (i * 91) % 256, (i * 53) % 256, 255, 255, 255, 0, 0, 0, 0, 0, 0])
    out = b"GIF89a" + struct.pack("<HHBBB", 8, 8, 0x81, 0, 0) + table
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for colour in (0, 1):
        out += b"\x21\xf9\x04\x04\x0a\x00\x00\x00"
        out += b"\x2c" + struct.pack("<HHHHB", 0, 0, 8, 8, 0)
        out += bytes([2]) + lzw_block([colour] * 64, 2)
    return out + b"\x3b"


def lzw_block(indices, min_code):
    """GIF LZW without a dictionary: a clear code before every few pixels keeps codes min_code+1 bits."""
    clear, end = 1 << min_code, (1 << min_code) + 1
    bits, nbits = 0, 0
    data = bytearray()
    width = min_code + 1
    def put(code):
        nonlocal bits, nbits
        bits |= code << nbits
        nbits += width
        while nbits >= 8:
            data.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    for k, v in enumerate(indices):
        if k % 2 == 0:
            put(clear)
        put(v)
    put(end)
    if nbits:
        data.append(bits & 0xFF)
    out = bytearray()
    for k in range(0, len(data), 255):
        chunk = data[k:k + 255]
        out += bytes([len(chunk)]) + chunk
    return bytes(out) + b"\x00"


class QuietServer(ThreadingHTTPServer):
    """Clients that hang up (cut faults, deadlines, TLS refusals) are expected: no traceback."""
    def handle_error(self, request, client_address):
        import sys
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError, OSError)):
            super().handle_error(request, client_address)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--tls-cert", help="serve HTTPS with this certificate (PEM, key included)")
    ap.add_argument("--sprite-port-file", help="open a second listener and write its port here")
    ap.add_argument("--hostile", action="store_true", help='start in hostile mode (as {"hostile": true})')
    ap.add_argument("--huge-sprites", action="store_true", help='serve 4096×4096 sprites (as {"huge_sprites": 4096})')
    ap.add_argument("--every-species", action="store_true",
                    help="list every species and form of the project's bundled name table, with their names")
    args = ap.parse_args()
    if args.every_species:
        list_every_species()
    settings["hostile"] = args.hostile
    if args.huge_sprites:
        settings["huge_sprites"] = 4096
    if args.sprite_port_file:
        sprites = QuietServer(("127.0.0.1", 0), Handler)
        sprites.listener = "sprites"
        sprites.daemon_threads = True
        SPRITE_PORT[0] = sprites.server_address[1]
        threading.Thread(target=sprites.serve_forever, daemon=True).start()
        with open(args.sprite_port_file + ".tmp", "w") as f:
            f.write(str(SPRITE_PORT[0]))
        os.replace(args.sprite_port_file + ".tmp", args.sprite_port_file)
    server = QuietServer(("127.0.0.1", args.port), Handler)
    if args.tls_cert:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert)
        # The handshake happens in each connection's own thread (on its first read), not in
        # accept(): one client that stalls or aborts its handshake must not hold up the others.
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
        server.tls = True
    server.daemon_threads = True
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(str(port))
        os.replace(args.port_file + ".tmp", args.port_file)
    print(f"listening on http://127.0.0.1:{port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
