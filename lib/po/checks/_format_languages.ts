/**
 * The format languages checked beyond C and Python, each as gettext 0.21's format-*.c parses and
 * compares it: tcl, javascript, php, lua, sh, kde, qt, perl and boost (`_format.ts` registers them).
 *
 * @module
 */
import type { FormatLanguage } from "./_format_numbered.ts";
import { JAVASCRIPT_FORMAT } from "./_format_javascript.ts";
import { KDE_FORMAT } from "./_format_kde.ts";
import { LUA_FORMAT } from "./_format_lua.ts";
import { PHP_FORMAT } from "./_format_php.ts";
import { QT_FORMAT } from "./_format_qt.ts";
import { SH_FORMAT } from "./_format_sh.ts";
import { TCL_FORMAT } from "./_format_tcl.ts";
import { PERL_FORMAT } from "./_format_perl.ts";
import { BOOST_FORMAT } from "./_format_boost.ts";

/** In the order their checks are listed. */
export const MORE_FORMAT_LANGUAGES: readonly FormatLanguage[] = [
  TCL_FORMAT,
  JAVASCRIPT_FORMAT,
  PHP_FORMAT,
  LUA_FORMAT,
  SH_FORMAT,
  KDE_FORMAT,
  QT_FORMAT,
  PERL_FORMAT,
  BOOST_FORMAT,
];
