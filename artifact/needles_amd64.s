//go:build !purego

#include "textflag.h"

DATA nibbleMask<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleMask<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleMask<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleMask<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbleMask<>(SB), RODATA|NOPTR, $32

// func indexAnchorsAVX2(s string, nib *[6][32]byte) int
//
// Teddy (Hyperscan's literal matcher) for three bytes, 32 positions at a time: the bytes
// at each position (one load) and the two bytes after them (loads one and two bytes on)
// are split into nibbles, each nibble looks up its bucket bits (VPSHUFB in nib's six
// tables), and a position is a candidate when a bucket's bit survives the AND of all six.
// The first is the lowest bit of VPMOVMSKB's mask of the non-zero bytes. Only positions
// whose next two bytes are in s, (len(s)-2)&^31 of them; the rest are the caller's.
TEXT ·indexAnchorsAVX2(SB), NOSPLIT, $0-32
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	MOVQ nib+16(FP), DI
	VMOVDQU 0(DI), Y8
	VMOVDQU 32(DI), Y9
	VMOVDQU 64(DI), Y10
	VMOVDQU 96(DI), Y11
	VMOVDQU 128(DI), Y12
	VMOVDQU 160(DI), Y13
	VMOVDQU nibbleMask<>(SB), Y15
	VPXOR   Y14, Y14, Y14
	MOVQ SI, DX
	SUBQ $2, BX
	ANDQ $~31, BX
	ADDQ SI, BX

loop:
	CMPQ SI, BX
	JAE  none
	VMOVDQU (SI), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB Y0, Y8, Y0
	VPSHUFB Y1, Y9, Y1
	VPAND   Y0, Y1, Y2
	VMOVDQU 1(SI), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB Y0, Y10, Y0
	VPSHUFB Y1, Y11, Y1
	VPAND   Y0, Y1, Y1
	VPAND   Y1, Y2, Y2
	VMOVDQU 2(SI), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB Y0, Y12, Y0
	VPSHUFB Y1, Y13, Y1
	VPAND   Y0, Y1, Y1
	VPAND   Y1, Y2, Y2
	VPCMPEQB Y14, Y2, Y2
	VPMOVMSKB Y2, AX
	XORL    $0xffffffff, AX
	JNZ     found
	ADDQ    $32, SI
	JMP     loop

found:
	VZEROUPPER
	BSFL AX, AX
	SUBQ DX, SI
	ADDQ SI, AX
	MOVQ AX, ret+24(FP)
	RET

none:
	VZEROUPPER
	MOVQ $-1, ret+24(FP)
	RET

// func indexOddAVX2(s string) int
//
// Thirty-two positions at a time: a byte that is not ASCII (its high bit, VPMOVMSKB of the
// bytes themselves), a backslash, or a '_' or '*' whose next byte (a load one byte on) is a
// digit (b-'0', unsigned, at most 9: equal to its minimum with 9). Only positions whose
// next byte is in s, (len(s)-1)&^31 of them; the rest are the caller's.
TEXT ·indexOddAVX2(SB), NOSPLIT, $0-24
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	MOVL $0x5f5f5f5f, AX // '_'
	MOVD AX, X2
	VPBROADCASTD X2, Y2
	MOVL $0x2a2a2a2a, AX // '*'
	MOVD AX, X3
	VPBROADCASTD X3, Y3
	MOVL $0x30303030, AX // '0'
	MOVD AX, X6
	VPBROADCASTD X6, Y6
	MOVL $0x09090909, AX
	MOVD AX, X7
	VPBROADCASTD X7, Y7
	MOVL $0x5c5c5c5c, AX // '\\'
	MOVD AX, X8
	VPBROADCASTD X8, Y8
	XORQ CX, CX // the offset of the 32 positions
	SUBQ $1, BX
	ANDQ $~31, BX

oloop:
	CMPQ CX, BX
	JAE  onone
	VMOVDQU (SI)(CX*1), Y0
	VMOVDQU 1(SI)(CX*1), Y1
	VPCMPEQB Y2, Y0, Y4
	VPCMPEQB Y3, Y0, Y5
	VPOR     Y4, Y5, Y4
	VPSUBB   Y6, Y1, Y1
	VPMINUB  Y7, Y1, Y5
	VPCMPEQB Y1, Y5, Y5
	VPAND    Y4, Y5, Y4
	VPCMPEQB Y8, Y0, Y5
	VPOR     Y5, Y4, Y4
	VPOR     Y0, Y4, Y4 // the high bit of a byte that is not ASCII
	VPMOVMSKB Y4, AX
	ADDQ $32, CX
	TESTL AX, AX
	JZ   oloop
	BSFL AX, AX
	LEAQ -32(CX)(AX*1), AX
	JMP  oret

onone:
	MOVQ $-1, AX

oret:
	VZEROUPPER
	MOVQ AX, ret+16(FP)
	RET
