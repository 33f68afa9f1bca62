/*
 * Prints how glibc's iconv reads each byte sequence that may be one character of CHARSET, one per
 * line: the bytes in hex, a tab, the code points in hex, and when glibc writes that character
 * otherwise (a character with two codes), a tab and the bytes it writes. Sequences glibc rejects,
 * and those it reads as more than one character (a valid shorter sequence followed by more), are
 * not printed.
 * The sequences are those of candidateSequences() in lib/po/charsets/_legacy_charset.ts.
 *
 *   cc -O2 glibc_dump.c -o glibc_dump && ./glibc_dump EUC-KR
 */
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static iconv_t cd, back;

/* Number of code points glibc reads from in[0, n) when it reads all of it, else 0. */
static size_t read_all(const unsigned char *in, size_t n, uint32_t *out, size_t room) {
  iconv(cd, NULL, NULL, NULL, NULL);
  char *ip = (char *)in, *op = (char *)out;
  size_t il = n, ol = room * 4;
  if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il != 0) return 0;
  if (iconv(cd, NULL, NULL, &op, &ol) == (size_t)-1) return 0;
  return room - ol / 4;
}

static void try(const unsigned char *in, size_t n) {
  uint32_t out[8], shorter[8];
  size_t k = read_all(in, n, out, 8);
  if (k == 0) return;
  if (n > 1 && read_all(in, n - 1, shorter, 8) != 0) return;
  for (size_t i = 0; i < n; i++) printf("%02X", in[i]);
  printf("\t");
  for (size_t i = 0; i < k; i++) printf("%s%04X", i ? " " : "", out[i]);
  unsigned char enc[16];
  char *ip = (char *)out, *op = (char *)enc;
  size_t il = k * 4, ol = sizeof enc;
  iconv(back, NULL, NULL, NULL, NULL);
  if (iconv(back, &ip, &il, &op, &ol) != (size_t)-1 && iconv(back, NULL, NULL, &op, &ol) != (size_t)-1) {
    size_t m = sizeof enc - ol;
    if (m != n || memcmp(enc, in, n) != 0) {
      printf("\t");
      for (size_t i = 0; i < m; i++) printf("%02X", enc[i]);
    }
  }
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  cd = iconv_open("UTF-32LE", argv[1]);
  back = iconv_open(argv[1], "UTF-32LE");
  if (cd == (iconv_t)-1 || back == (iconv_t)-1) {
    perror("iconv_open");
    return 1;
  }
  unsigned char b[4];
  for (int a = 0x80; a < 0x100; a++) { b[0] = a; try(b, 1); }
  for (int a = 0x80; a < 0x100; a++)
    for (int c = 0x30; c < 0x100; c++) { b[0] = a; b[1] = c; try(b, 2); }
  if (strcmp(argv[1], "EUC-JP") == 0)
    for (int c = 0xa1; c < 0xff; c++)
      for (int d = 0xa1; d < 0xff; d++) { b[0] = 0x8f; b[1] = c; b[2] = d; try(b, 3); }
  if (strcmp(argv[1], "GB18030") == 0)
    for (int a = 0x81; a <= 0x84; a++)
      for (int c = 0x30; c <= 0x39; c++)
        for (int d = 0x81; d < 0xff; d++)
          for (int e = 0x30; e <= 0x39; e++) { b[0] = a; b[1] = c; b[2] = d; b[3] = e; try(b, 4); }
  return 0;
}
