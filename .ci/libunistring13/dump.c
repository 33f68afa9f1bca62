/* Prints what the installed libunistring (1.3 in Debian trixie) uses for line breaking and widths:
   the line-break property and East-Asian bit of every code point (its table libunistring_unilbrkprop),
   its pair table (libunistring_unilbrk_table) and uc_width of every code point. Only the layout of the
   table (lbrkprop1.h, lbrktables.h of the same version's sources) is taken from the sources. */
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#define unilbrkprop libunistring_unilbrkprop
#define unilbrk_table libunistring_unilbrk_table
#include "unilbrk/lbrktables.h"
extern int uc_width (ucs4_t uc, const char *encoding);
int main (void)
{
  int last = -1;
  printf ("# props\n");
  for (ucs4_t uc = 0; uc < 0x110000; uc++)
    {
      int v = unilbrkprop_lookup (uc);
      if (v != last) { printf ("%u %d %d\n", uc, PROP (v), EA (v)); last = v; }
    }
  printf ("# widths\n");
  last = -99;
  for (ucs4_t uc = 0; uc < 0x110000; uc++)
    {
      int w = uc_width (uc, "UTF-8");
      if (w != last) { printf ("%u %d\n", uc, w); last = w; }
    }
  printf ("# pairs\n");
  for (int i = 0; i < 41; i++)
    {
      for (int j = 0; j < 41; j++)
        putchar (unilbrk_table[i][j] == D ? 'D' : unilbrk_table[i][j] == I ? 'I' : unilbrk_table[i][j] == P ? 'P' : '?');
      putchar ('\n');
    }
  return 0;
}
