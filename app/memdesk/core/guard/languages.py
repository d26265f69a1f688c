""" "Ignore your previous instructions", a new unrestricted role, and "do not tell the user"
in the languages most agents are spoken to in. Each language gives the verbs that drop
instructions and the words for instructions; a rule matches them in either order (Japanese,
Korean and Turkish put the verb last), within one sentence."""

from __future__ import annotations

import re

from memdesk.core.guard.steering import DROP, HIDE, ROLE

# language: (verbs that drop, words for instructions or rules)
_FR_IGNORE = r"ignore[rz]?(?= (?:toutes|tous|les|tes|vos|la|le|l'))"
_ES_PT_IGNORE = r"ignor[ae](?= (?:todas|todos|las|los|tus|sus|as|os|suas|tuas))"
_DROP_WORDS = {
    "fr": (rf"{_FR_IGNORE}|oublie[rz]?|ne tiens pas compte|fais abstraction",
           r"instructions|consignes|règles|directives|prompt système"),
    "de": (r"ignorier(?:e|en)|vergiss|vergessen sie|missachte|übergehe",
           r"anweisungen|regeln|instruktionen|vorgaben|befehle|systemprompt"),
    "es": (rf"{_ES_PT_IGNORE}|olv[ií]d\w*|descarta|omite",
           r"instrucciones|reglas|indicaciones|directrices"),
    "it": (r"ignora(?= (?:tutte|tutti|le|ogni))|dimentica|trascura",
           r"istruzioni|regole|direttive"),
    "pt": (rf"{_ES_PT_IGNORE}|esqueça|esqueca|desconsidere",
           r"instruções|instrucoes|regras|diretrizes"),
    "nl": (r"negeer|vergeet", r"instructies|regels|opdrachten"),
    "sv": (r"ignorera|glöm|strunta i", r"instruktioner|regler"),
    "pl": (r"zignoruj|ignoruj|zapomnij", r"instrukcje|polecenia|zasady|reguły"),
    "ru": (r"игнорируй\w*|проигнорируй\w*|забудь\w*|не обращай внимания",
           r"инструкци\w*|правил\w*|указани\w*|промпт\w*"),
    "uk": (r"ігноруй\w*|забудь\w*", r"інструкці\w*|правил\w*"),
    "tr": (r"yok say|görmezden gel|unut|dikkate alma", r"talimat\w*|kural\w*|istem\w*"),
    "vi": (r"bỏ qua|quên", r"hướng dẫn|chỉ dẫn|quy tắc|chỉ thị"),
    "id": (r"abaikan|lupakan", r"instruksi|perintah|aturan"),
    "ar": (r"تجاهل|انس|اهمل", r"التعليمات|الأوامر|القواعد|تعليمات"),
    "hi": (r"अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल", r"निर्देश\w*|नियम"),
    "zh": (r"忽略|无视|無視|忘记|忘記|忽视|忽視|不要理会",
           r"指令|指示|提示|规则|規則|说明|設定|设定"),
    "ja": (r"無視|忘れ", r"指示|命令|プロンプト|ルール"),
    "ko": (r"무시|잊어", r"지시|명령|프롬프트|규칙"),
}  # fmt: skip
_SENTENCE = r"[^.!?。！？\n]{0,40}"
_DROP = [
    re.compile(rf"(?:{verbs}){_SENTENCE}(?:{words})|(?:{words}){_SENTENCE}(?:{verbs})")
    for verbs, words in _DROP_WORDS.values()
]
# Any language's word for instructions: texts without one skip the rules above. Each is
# plain text (some with \w* after it, which any text holding the word matches), so it is looked
# for as text: one expression of them all took ~13 µs of the ~100 µs the guard spent on each
# memory of a first pull.
_ANY_WORD = tuple(
    dict.fromkeys(
        word.removesuffix(r"\w*") for _, words in _DROP_WORDS.values() for word in words.split("|")
    )
)
_ANY_ASCII_WORD = tuple(word for word in _ANY_WORD if word.isascii())  # all an ASCII text holds
_ROLE = re.compile(
    r"sans (?:aucune )?restrictions?|à partir de maintenant,? tu es|ohne (?:einschränkungen|"
    r"rückfrage|regeln)|ab (?:jetzt|sofort) (?:bist|führst) du|sin (?:ninguna )?restricciones|"
    r"a partir de ahora eres|senza (?:alcuna )?restrizioni|sem (?:nenhuma )?restrições|"
    r"без (?:каких-либо )?ограничений|теперь ты|没有(?:任何)?限制|现在开始你是|从现在开始你|"
    r"制限(?:の)?(?:ない|なし)|제한(?:이)? 없는|kısıtlama(?:sız|lar olmadan)"
)
_HIDE = re.compile(
    r"ne (?:le |lui )?dis rien à l'utilisateur|sans (?:le )?dire à l'utilisateur|"
    r"sag (?:dem )?(?:nutzer|benutzer)\w* nichts|ohne (?:den|dem) (?:nutzer|benutzer)\w* zu "
    r"(?:sagen|informieren)|no (?:le )?digas (?:nada )?al usuario|sin (?:decirle|avisar) al "
    r"usuario|non dire (?:nulla )?all'utente|não (?:diga|conte) (?:nada )?ao usuário|"
    r"не говори пользователю|不要告诉用户|不要告訴用戶|ユーザーに(?:は)?(?:言わ|伝え)ないで|"
    r"사용자에게 (?:말하지|알리지) 마"
)


def find(plain: str) -> list[str]:
    """Why `plain` (casefolded NFKC text) steers its reader in another language."""
    found = []
    words = _ANY_ASCII_WORD if plain.isascii() else _ANY_WORD
    if any(word in plain for word in words) and any(p.search(plain) for p in _DROP):
        found.append(DROP)
    if _ROLE.search(plain):
        found.append(ROLE)
    if _HIDE.search(plain):
        found.append(HIDE)
    return found
