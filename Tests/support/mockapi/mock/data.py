"""What the mock knows: the Pokémon it lists and the texts it serves (pokeapi.co's names and
genera, as its API serves them, and Pokédex entries of the project's own), embedded so that the
tests need nothing else. --every-species widens NAMES, FORMS, TYPES and TYPE_NAMES in place
(dex.list_every_species)."""

NAMES = ["bulbasaur", "ivysaur", "venusaur", "charmander", "charmeleon", "charizard", "squirtle",
         "wartortle", "blastoise", "caterpie", "metapod", "butterfree", "weedle", "kakuna", "beedrill",
         "pidgey", "pidgeotto", "pidgeot", "rattata", "raticate", "spearow", "fearow", "ekans", "arbok",
         "pikachu", "raichu", "sandshrew", "sandslash", "nidoran-f", "nidorina", "nidoqueen", "nidoran-m",
         "nidorino", "nidoking", "clefairy", "clefable", "vulpix", "ninetales", "jigglypuff", "wigglytuff",
         "zubat", "golbat", "oddish", "gloom"]
# Forms live past 10000, as in PokeAPI.
FORMS = [(10001, "deoxys-attack", 386), (10033, "venusaur-mega", 3)]
TYPES = {1: ["grass", "poison"], 4: ["fire"], 6: ["fire", "flying"], 7: ["water"], 25: ["electric"], 26: ["electric"]}

# Texts (PokeAPI's real ones as its API serves them, but for the flavour texts), embedded so that
# the tests need nothing else: every language's name of the languages, the types in TYPES (and normal),
# the abilities and stats pokemon_body names, the forms in FORMS; and, for the species below,
# what species_body adds to its own English entries: names, genera and the newest flavour text
# (the last entry in the API's list) in de and ja-hrkt. A dict per resource, by its name or id.
# The flavour texts are not the games' (those are Nintendo's): they are the project's own
# sentences, shaped like the games' as PokeAPI serves them, kana spaced with ideographic spaces
# (\u3000) and broken with \n, German broken with \n, so that the cleaning is tested as before.
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
         "flavor": {"ja-hrkt": ("shield", "にわの\u3000すみで\u3000ひなたぼっこを\nしながら\u3000ゆっくりと\u3000ひるねを\nたのしむのが\u3000にっかだ。"),
                    "de": ("shield", "Es döst gern in einer Ecke des Gartens\nund zählt dabei die Wolken, die über den\nZaun ziehen.")}},
    3: {"names": {"ja-hrkt": "フシギバナ", "ko": "이상해꽃", "zh-hant": "妙蛙花", "fr": "Florizarre", "de": "Bisaflor", "ja": "フシギバナ", "zh-hans": "妙蛙花"},
         "genera": {"ja-hrkt": "たねポケモン", "de": "Samen-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "おおきな\u3000はなを\u3000かぜに\u3000ゆらして\nその\u3000おとに\u3000あわせて\u3000しずかに\nうたを\u3000うたっている。"),
                    "de": ("shield", "Es wiegt seine große Blüte im Wind.\nDazu summt es ein leises Lied.")}},
    4: {"names": {"ja-hrkt": "ヒトカゲ", "ko": "파이리", "zh-hant": "小火龍", "fr": "Salamèche", "de": "Glumanda", "ja": "ヒトカゲ", "zh-hans": "小火龙"},
         "genera": {"ja-hrkt": "とかげポケモン", "de": "Echsen-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "さむい\u3000ひには\u3000だんろの\u3000まえで\nまるくなる。\u3000あたたかい\u3000ばしょを\nみつけるのが\u3000とても\u3000じょうずだ。"),
                    "de": ("shield", "An kalten Tagen rollt es sich vor dem\nKamin zusammen. Einen warmen Platz findet\nes immer als Erstes.")}},
    6: {"names": {"ja-hrkt": "リザードン", "ko": "리자몽", "zh-hant": "噴火龍", "fr": "Dracaufeu", "de": "Glurak", "ja": "リザードン", "zh-hans": "喷火龙"},
         "genera": {"ja-hrkt": "かえんポケモン", "de": "Flammen-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "やま\u3000１２００メートル\u3000まで\nにもつを\u3000かかえて\u3000とぶことができる。\nてがみを\u3000とどける\u3000しごとが\u3000すき。"),
                    "de": ("shield", "Man erzählt, es trage Briefe über Berge\nvon bis zu 1 200 m Höhe. Es liefert\nsie immer pünktlich ab.")}},
    7: {"names": {"ja-hrkt": "ゼニガメ", "ko": "꼬부기", "zh-hant": "傑尼龜", "fr": "Carapuce", "de": "Schiggy", "ja": "ゼニガメ", "zh-hans": "杰尼龟"},
         "genera": {"ja-hrkt": "かめのこポケモン", "de": "Minikröten-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "あめが\u3000ふると\u3000みずたまりで\nはねまわり\u3000こどもたちと\u3000いっしょに\nくたくたに\u3000なるまで\u3000あそびつづける。"),
                    "de": ("shield", "An Regentagen springt es durch jede Pfütze, die es findet,\nund spielt mit den Kindern, bis alle müde sind.")}},
    25: {"names": {"ja-hrkt": "ピカチュウ", "ko": "피카츄", "zh-hant": "皮卡丘", "fr": "Pikachu", "de": "Pikachu", "ja": "ピカチュウ", "zh-hans": "皮卡丘"},
         "genera": {"ja-hrkt": "ねずみポケモン", "de": "Maus-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "あさの\u3000ひかりを\u3000あびて\nめを\u3000さますと\u3000まず\nおおきく\u3000のびを\u3000するのが\u3000ならいだ。"),
                    "de": ("shield", "Pikachu grüßt den Morgen, indem es sich\nim Gras ausstreckt und dabei ein kleines\nLied vor sich hin summt.")}},
    26: {"names": {"ja-hrkt": "ライチュウ", "ko": "라이츄", "zh-hant": "雷丘", "fr": "Raichu", "de": "Raichu", "ja": "ライチュウ", "zh-hans": "雷丘"},
         "genera": {"ja-hrkt": "ねずみポケモン", "de": "Maus-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "ゆうがたに\u3000なると\u3000おかの\u3000うえで\nしずむ\u3000たいようを\nいつまでも\u3000じっと\u3000ながめている。"),
                    "de": ("shield", "Am Abend sitzt es gern oben auf einem Hügel\nund sieht der Sonne zu, bis sie hinter den\nBäumen verschwunden ist.")}},
    29: {"names": {"ja-hrkt": "ニドラン♀", "ko": "니드런♀", "zh-hant": "尼多蘭", "fr": "Nidoran♀", "de": "Nidoran♀", "ja": "ニドラン♀", "zh-hans": "尼多兰"},
         "genera": {"ja-hrkt": "どくばりポケモン", "de": "Giftdorn-Pokémon"},
         "flavor": {"ja-hrkt": ("shield", "もりの\u3000こみちを\u3000のんびり\u3000さんぽして\nあそぶ。\u3000はなの\u3000においを\u3000かぐのが\nなにより\u3000すきらしい。"),
                    "de": ("shield", "Es spaziert gern gemächlich über Waldwege\nund schnuppert an jeder Blume. Den Duft von\nKlee mag es am allerliebsten.")}},
    386: {"names": {"ja-hrkt": "デオキシス", "ko": "테오키스", "zh-hant": "代歐奇希斯", "fr": "Deoxys", "de": "Deoxys", "ja": "デオキシス", "zh-hans": "代欧奇希斯"},
         "genera": {"ja-hrkt": "ＤＮＡポケモン", "de": "DNS"},
         "flavor": {"ja-hrkt": ("alpha-sapphire", "ほしぞらを\u3000みあげるのが\u3000すきな\u3000ポケモン。\nよるに\u3000なると\u3000たかい\u3000ところに\u3000のぼり\nながれぼしが\u3000おちるのを\u3000じっと\u3000まっている。"),
                    "de": ("alpha-sapphire", "Deoxys betrachtet gern den Sternenhimmel.\nNachts klettert es auf hohe Dächer und wartet\ndort geduldig auf eine Sternschnuppe, der es\nmit großen Augen hinterherschaut.")}},
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
# What a card's abilities, breeding and moves name (issue 57): PokeAPI's real texts.
ABILITY_EFFECTS = {  # name: ({language: short_effect}, {language: the newest flavour text})
    "static": ({"en": "Has a 30% chance of paralyzing attacking Pokémon on contact.",
                "de": "Kann bei Berührung paralysieren."},
               {"ja-hrkt": "せっしょくした　あいてを\nまひさせる　ことがある。", "ja": "接触した　相手を\nまひさせる　ことがある。"}),
    "lightning-rod": ({"en": "Redirects single-target Electric moves to this Pokémon where possible. Absorbs Electric moves, raising Special Attack one stage."},
                      {"ja-hrkt": "でんきの　わざを　じぶんに　よせつけ\nダメージは　うけずに　とくこうが　あがる。",
                       "de": "Zieht Elektro-Attacken an und erhöht den Spezial-Angriff."}),
}
DAMAGE_CLASSES = {  # name: (id, {language: name})
    "status": (1, {"ja-hrkt": "へんか", "fr": "statut", "de": "status", "es": "estado", "en": "status"}),
    "physical": (2, {"ja-hrkt": "ぶつり", "fr": "physique", "de": "physisch", "es": "físico", "en": "physical"}),
    "special": (3, {"ja-hrkt": "とくしゅ", "fr": "spéciale", "de": "spezial", "es": "especial", "en": "special"}),
}
EGG_GROUPS = {  # name: (id, {language: name})
    "ground": (5, {"ja-hrkt": "りくじょう", "fr": "Terrestre", "de": "Feld", "es": "Campo", "en": "Field"}),
    "fairy": (6, {"ja-hrkt": "ようせい", "fr": "Féérique", "de": "Fee", "es": "Hada", "en": "Fairy"}),
}
# Every Pokémon's moves, by id: 1–6 by level-up in Scarlet/Violet (and X/Y), 7–18 from machines,
# 19–21 by breeding, 22–24 from tutors. A move's values follow its id (MOVE_TYPES, its category).
MOVE_TYPES = ["normal", "electric", "fire", "water", "grass", "psychic"]
