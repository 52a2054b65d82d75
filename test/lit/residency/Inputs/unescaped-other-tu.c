// For unescaped-globals.c: another translation unit takes the address of
// that file's external global `ext`.
extern float ext[];
float *ext_from_other_tu(void) { return ext; }
