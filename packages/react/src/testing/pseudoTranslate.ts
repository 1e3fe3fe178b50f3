/** A few hundred words of French, Spanish and German: enough for demos to look translated. */
const DICTIONARIES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  French: {
    the: 'le', a: 'un', an: 'un', and: 'et', or: 'ou', to: 'à', of: 'de', in: 'dans', on: 'sur', for: 'pour', with: 'avec',
    is: 'est', are: 'sont', was: 'était', be: 'être', have: 'avoir', has: 'a', i: 'je', you: 'vous', we: 'nous', they: 'ils',
    it: 'il', this: 'ce', that: 'que', my: 'mon', your: 'votre', our: 'notre', not: 'pas', no: 'non', yes: 'oui',
    hello: 'bonjour', good: 'bon', morning: 'matin', evening: 'soir', night: 'nuit', day: 'jour', week: 'semaine',
    today: "aujourd'hui", tomorrow: 'demain', thanks: 'merci', thank: 'merci', please: "s'il vous plaît", see: 'voir',
    soon: 'bientôt', meeting: 'réunion', team: 'équipe', project: 'projet', notes: 'notes', note: 'note', plan: 'plan',
    new: 'nouveau', next: 'prochain', first: 'premier', time: 'temps', work: 'travail', world: 'monde', page: 'page',
    translate: 'traduire', translation: 'traduction', text: 'texte', ready: 'prêt', done: 'fait', help: 'aide',
    love: 'amour', friend: 'ami', friends: 'amis', house: 'maison', book: 'livre', water: 'eau', coffee: 'café',
    question: 'question', questions: 'questions', idea: 'idée', ideas: 'idées', update: 'mise à jour', draft: 'brouillon',
    write: 'écrire', read: 'lire', send: 'envoyer', will: 'va', can: 'peut', all: 'tous', everyone: 'tout le monde',
    weekly: 'hebdomadaire', shopping: 'courses', list: 'liste', milk: 'lait', bread: 'pain', eggs: 'œufs',
    call: 'appel', email: 'courriel', monday: 'lundi', friday: 'vendredi', small: 'petit', big: 'grand', more: 'plus',
  },
  Spanish: {
    the: 'el', a: 'un', an: 'un', and: 'y', or: 'o', to: 'a', of: 'de', in: 'en', on: 'en', for: 'para', with: 'con',
    is: 'es', are: 'son', was: 'era', be: 'ser', have: 'tener', has: 'tiene', i: 'yo', you: 'tú', we: 'nosotros', they: 'ellos',
    it: 'eso', this: 'este', that: 'que', my: 'mi', your: 'tu', our: 'nuestro', not: 'no', no: 'no', yes: 'sí',
    hello: 'hola', good: 'buen', morning: 'mañana', evening: 'tarde', night: 'noche', day: 'día', week: 'semana',
    today: 'hoy', tomorrow: 'mañana', thanks: 'gracias', thank: 'gracias', please: 'por favor', see: 'ver',
    soon: 'pronto', meeting: 'reunión', team: 'equipo', project: 'proyecto', notes: 'notas', note: 'nota', plan: 'plan',
    new: 'nuevo', next: 'próximo', first: 'primero', time: 'tiempo', work: 'trabajo', world: 'mundo', page: 'página',
    translate: 'traducir', translation: 'traducción', text: 'texto', ready: 'listo', done: 'hecho', help: 'ayuda',
    love: 'amor', friend: 'amigo', friends: 'amigos', house: 'casa', book: 'libro', water: 'agua', coffee: 'café',
    question: 'pregunta', questions: 'preguntas', idea: 'idea', ideas: 'ideas', update: 'actualización', draft: 'borrador',
    write: 'escribir', read: 'leer', send: 'enviar', will: 'va a', can: 'puede', all: 'todos', everyone: 'todos',
    weekly: 'semanal', shopping: 'compras', list: 'lista', milk: 'leche', bread: 'pan', eggs: 'huevos',
    call: 'llamada', email: 'correo', monday: 'lunes', friday: 'viernes', small: 'pequeño', big: 'grande', more: 'más',
  },
  German: {
    the: 'die', a: 'ein', an: 'ein', and: 'und', or: 'oder', to: 'zu', of: 'von', in: 'in', on: 'auf', for: 'für', with: 'mit',
    is: 'ist', are: 'sind', was: 'war', be: 'sein', have: 'haben', has: 'hat', i: 'ich', you: 'du', we: 'wir', they: 'sie',
    it: 'es', this: 'dies', that: 'dass', my: 'mein', your: 'dein', our: 'unser', not: 'nicht', no: 'nein', yes: 'ja',
    hello: 'hallo', good: 'guten', morning: 'Morgen', evening: 'Abend', night: 'Nacht', day: 'Tag', week: 'Woche',
    today: 'heute', tomorrow: 'morgen', thanks: 'danke', thank: 'danke', please: 'bitte', see: 'sehen',
    soon: 'bald', meeting: 'Besprechung', team: 'Team', project: 'Projekt', notes: 'Notizen', note: 'Notiz', plan: 'Plan',
    new: 'neu', next: 'nächste', first: 'erste', time: 'Zeit', work: 'Arbeit', world: 'Welt', page: 'Seite',
    translate: 'übersetzen', translation: 'Übersetzung', text: 'Text', ready: 'bereit', done: 'erledigt', help: 'Hilfe',
    love: 'Liebe', friend: 'Freund', friends: 'Freunde', house: 'Haus', book: 'Buch', water: 'Wasser', coffee: 'Kaffee',
    question: 'Frage', questions: 'Fragen', idea: 'Idee', ideas: 'Ideen', update: 'Update', draft: 'Entwurf',
    write: 'schreiben', read: 'lesen', send: 'senden', will: 'wird', can: 'kann', all: 'alle', everyone: 'alle',
    weekly: 'wöchentlich', shopping: 'Einkaufs', list: 'Liste', milk: 'Milch', bread: 'Brot', eggs: 'Eier',
    call: 'Anruf', email: 'E-Mail', monday: 'Montag', friday: 'Freitag', small: 'klein', big: 'groß', more: 'mehr',
  },
};

const ACCENTS: Readonly<Record<string, string>> = {
  a: 'á', e: 'é', i: 'í', o: 'ö', u: 'ü', c: 'ç', n: 'ñ', y: 'ý', s: 'š', z: 'ž',
  A: 'Á', E: 'É', I: 'Í', O: 'Ö', U: 'Ü', C: 'Ç', N: 'Ñ', Y: 'Ý', S: 'Š', Z: 'Ž',
};

/**
 * Whether the simulated engine has a dictionary for `language` (an English
 * language name, as the default prompt names it).
 *
 * @example
 * hasDictionary('French'); // true
 */
export function hasDictionary(language: string): boolean {
  return dictionaryFor(language) !== undefined;
}

function dictionaryFor(language: string): Readonly<Record<string, string>> | undefined {
  const name = language.charAt(0).toUpperCase() + language.slice(1).toLowerCase();
  return Object.hasOwn(DICTIONARIES, name) ? DICTIONARIES[name] : undefined;
}

function matchCase(word: string, translated: string): string {
  const first = word[0] ?? '';
  return first !== first.toLowerCase() ? translated.charAt(0).toUpperCase() + translated.slice(1) : translated;
}

/**
 * A deterministic pseudo-translation for the simulated engine. French,
 * Spanish and German go word by word through a small dictionary (unknown
 * words stay as they are); any other language gets clearly marked
 * pseudo-localisation: accented letters in brackets that name the language.
 *
 * @example
 * pseudoTranslate('Good morning, team', 'French'); // 'Bon matin, équipe'
 * pseudoTranslate('Hello', 'Japanese'); // '[Japanese: Héllö]'
 */
export function pseudoTranslate(text: string, language: string): string {
  const dictionary = dictionaryFor(language);
  if (!dictionary) {
    const accented = text.replace(/[a-zA-Z]/g, (ch) => ACCENTS[ch] ?? ch);
    return `[${language}: ${accented}]`;
  }
  return text.replace(/\p{L}+(?:'\p{L}+)?/gu, (word) => {
    const translated = dictionary[word.toLowerCase()];
    return translated === undefined ? word : matchCase(word, translated);
  });
}
