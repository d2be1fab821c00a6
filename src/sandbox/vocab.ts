/** Word lists the generator builds titles, names and prose from. Parallel lists give the fr and it titles. */

/** [en, fr, it] */
export const NOUNS: ReadonlyArray<readonly [string, string, string]> = [
  ['River', 'Rivière', 'Fiume'],
  ['Night', 'Nuit', 'Notte'],
  ['Garden', 'Jardin', 'Giardino'],
  ['City', 'Ville', 'Città'],
  ['Winter', 'Hiver', 'Inverno'],
  ['Summer', 'Été', 'Estate'],
  ['Shadow', 'Ombre', 'Ombra'],
  ['Light', 'Lumière', 'Luce'],
  ['Sea', 'Mer', 'Mare'],
  ['Mountain', 'Montagne', 'Montagna'],
  ['Heart', 'Cœur', 'Cuore'],
  ['Star', 'Étoile', 'Stella'],
  ['Road', 'Route', 'Strada'],
  ['House', 'Maison', 'Casa'],
  ['Island', 'Île', 'Isola'],
  ['Forest', 'Forêt', 'Foresta'],
  ['Mirror', 'Miroir', 'Specchio'],
  ['Storm', 'Tempête', 'Tempesta'],
  ['Dream', 'Rêve', 'Sogno'],
  ['Fire', 'Feu', 'Fuoco'],
  ['Moon', 'Lune', 'Luna'],
  ['Train', 'Train', 'Treno'],
  ['Letter', 'Lettre', 'Lettera'],
  ['Secret', 'Secret', 'Segreto'],
  ['Kingdom', 'Royaume', 'Regno'],
  ['Harbour', 'Port', 'Porto'],
  ['Bridge', 'Pont', 'Ponte'],
  ['Clock', 'Horloge', 'Orologio'],
  ['Window', 'Fenêtre', 'Finestra'],
  ['Voice', 'Voix', 'Voce'],
  ['Empire', 'Empire', 'Impero'],
  ['Desert', 'Désert', 'Deserto'],
];

/** [en, fr, it] */
export const ADJECTIVES: ReadonlyArray<readonly [string, string, string]> = [
  ['Silent', 'silencieux', 'silenzioso'],
  ['Last', 'dernier', 'ultimo'],
  ['Hidden', 'caché', 'nascosto'],
  ['Broken', 'brisé', 'spezzato'],
  ['Golden', 'doré', 'dorato'],
  ['Long', 'long', 'lungo'],
  ['Red', 'rouge', 'rosso'],
  ['Blue', 'bleu', 'blu'],
  ['Lost', 'perdu', 'perduto'],
  ['Wild', 'sauvage', 'selvaggio'],
  ['Distant', 'lointain', 'lontano'],
  ['Quiet', 'tranquille', 'tranquillo'],
  ['Frozen', 'gelé', 'gelato'],
  ['Burning', 'ardent', 'ardente'],
  ['Secret', 'secret', 'segreto'],
  ['Endless', 'infini', 'infinito'],
];

export const ROMAJI: ReadonlyArray<readonly [string, string]> = [
  ['Sora', '空'],
  ['Hoshi', '星'],
  ['Tsuki', '月'],
  ['Kaze', '風'],
  ['Yume', '夢'],
  ['Hikari', '光'],
  ['Umi', '海'],
  ['Yama', '山'],
  ['Hana', '花'],
  ['Mori', '森'],
  ['Machi', '街'],
  ['Yoru', '夜'],
  ['Kokoro', '心'],
  ['Tokyo', '東京'],
  ['Ken', '剣'],
  ['Mahou', '魔法'],
];

export const GAME_WORDS = ['Runner', 'Tactics', 'Legends', 'Odyssey', 'Arena', 'Chronicles', 'Frontier', 'Protocol', 'Drift', 'Rising'];
export const GAME_SUBTITLES = ['Definitive Edition', 'Remastered', 'Reborn', 'The Lost Chapters', 'Deluxe'];
export const PLATFORMS = ['PC', 'PlayStation 5', 'PlayStation 4', 'Xbox Series X|S', 'Nintendo Switch', 'macOS', 'Linux', 'iOS', 'Android'];

export const FIRST_NAMES = [
  'Léa',
  'Marco',
  'Ana',
  'Kenji',
  'Chloé',
  'Giulia',
  'Tom',
  'Ingrid',
  'Omar',
  'Yuki',
  'Zoë',
  'Pavel',
  'Aoife',
  'Bruno',
  'Saanvi',
  'Émile',
];
export const LAST_NAMES = [
  'Martin',
  'Rossi',
  'García',
  'Tanaka',
  'Dubois',
  'Bianchi',
  'Okafor',
  'Nowak',
  'Lindqvist',
  'Moreau',
  'Ferrari',
  "O'Brien",
  'Kowalski',
  'Nakamura',
  'Silva',
  'Müller',
];

export const ORIGINAL_TITLES = [
  'La Casa del Sol',
  'Das Leben der Anderen',
  '올드보이',
  'Det Sjunde Inseglet',
  'Cidade de Deus',
  'Ladri di biciclette',
  'Le Samouraï',
  'Sin Nombre',
];

export const NOTES = [
  'Watched with the family, everyone loved it.',
  'Slow start; stick with it.',
  'Recommended by "Marco", and he was right.',
  'Better the second time.',
  'Soundtrack is excellent.',
  'Gave up halfway, might return.',
  'Borrowed copy — return to Léa!',
  'Ending felt rushed.',
];

export const REVIEW_HEADLINES = [
  'A quiet triumph',
  'Not for me',
  'Better than expected',
  'Flawed but memorable',
  'An instant favourite',
  'Overrated, sorry',
  'Worth every minute',
];
export const REVIEW_BODIES = [
  'It takes its time, and the patience pays off in the last act.',
  'Gorgeous to look at, thin on substance. Still, I could not look away.',
  'The characters carry it; the plot is almost beside the point.',
  'I went in with low expectations and came out recommending it to everyone.',
  'Some pacing problems in the middle, but the ending lands.',
];
