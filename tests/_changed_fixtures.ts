/**
 * A python-docs-like catalogue with three old warnings (whitespace, urls, rest-role-targets), the
 * same with one word fixed, and with a broken role added: what `check --changed` is proved on.
 *
 * @module
 */
const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n';
/** Three old warnings (whitespace, urls, rest-role-targets) and a word to fix. */
export const OLD = HEADER +
  '#: ../../library/os.rst:10\nmsgid "Use :func:`open` to open the file."\nmsgstr "Utilisez :func:`ouvrir` pour ouvrir le fichier."\n\n' +
  '#: ../../library/os.rst:12\nmsgid "See https://docs.python.org/3/ for more."\nmsgstr "Voir https://example.org/ pour plus."\n\n' +
  '#: ../../library/os.rst:14\nmsgid "The end of it."\nmsgstr "La fin de cela. "\n\n' +
  '#: ../../library/os.rst:16\nmsgid "Return the value."\nmsgstr "Renvoie la valuer."\n';
export const ONE_WORD_FIXED = OLD.replace("la valuer.", "la valeur.");
export const BROKEN_ROLE = ONE_WORD_FIXED.replace("la valeur.", "la valeur de :func:`foo.");
