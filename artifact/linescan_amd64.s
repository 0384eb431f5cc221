//go:build !purego

#include "textflag.h"

DATA lineScanBytes<>+0(SB)/8, $0x5c09302a5f5b230a
GLOBL lineScanBytes<>(SB), RODATA|NOPTR, $8

// func lineScanAVX2(s string) (nl, hash, last, odd, done int)
//
// Thirty-two bytes at a time: the '\n', '#' and '[' of each block as three masks, and a
// fourth of the bytes indexOddGeneric stops at (not ASCII: the high bit, VPMOVMSKB of the
// bytes themselves; a backslash; a '_' or '*' whose next byte, a load one byte on, is a
// digit). A block notes its first '#' and its first odd byte (unless one was noted) and its
// last '['; the block with a '\n' keeps only the bits below it first, and ends the scan.
// Only the (len(s)-1)&^31 bytes whose next byte is in s; the rest are the caller's.
TEXT ·lineScanAVX2(SB), NOSPLIT, $0-56
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	SUBQ $1, BX
	ANDQ $~31, BX
	// The bytes compared, each in every byte of a register (VPBROADCASTB from memory: an
	// SSE MOVD among the VEX instructions would pay for a change of state on every call,
	// and this runs once a line).
	VPBROADCASTB lineScanBytes<>+0(SB), Y1  // '\n'
	VPBROADCASTB lineScanBytes<>+1(SB), Y2  // '#'
	VPBROADCASTB lineScanBytes<>+2(SB), Y3  // '['
	VPBROADCASTB lineScanBytes<>+3(SB), Y10 // '_'
	VPBROADCASTB lineScanBytes<>+4(SB), Y11 // '*'
	VPBROADCASTB lineScanBytes<>+5(SB), Y12 // '0'
	VPBROADCASTB lineScanBytes<>+6(SB), Y13 // 9
	VPBROADCASTB lineScanBytes<>+7(SB), Y14 // '\\'
	MOVQ $-1, R8 // hash
	MOVQ $-1, R9 // last
	MOVQ $-1, CX // odd
	XORQ R12, R12 // the offset of the block

loop:
	CMPQ R12, BX
	JAE  none
	VMOVDQU (SI)(R12*1), Y0
	VMOVDQU 1(SI)(R12*1), Y7
	VPCMPEQB Y1, Y0, Y4
	VPCMPEQB Y2, Y0, Y5
	VPCMPEQB Y3, Y0, Y6
	VPCMPEQB Y10, Y0, Y8
	VPCMPEQB Y11, Y0, Y9
	VPOR     Y8, Y9, Y8
	VPSUBB   Y12, Y7, Y7
	VPMINUB  Y13, Y7, Y9
	VPCMPEQB Y7, Y9, Y9
	VPAND    Y8, Y9, Y8
	VPCMPEQB Y14, Y0, Y9
	VPOR     Y9, Y8, Y8
	VPOR     Y0, Y8, Y8
	VPMOVMSKB Y4, AX
	VPMOVMSKB Y5, DX
	VPMOVMSKB Y6, DI
	VPMOVMSKB Y8, R10
	TESTL AX, AX
	JZ   note
	// The block holds the '\n': only the bits below the lowest one, (m-1) &^ m.
	MOVL AX, R11
	SUBL $1, R11
	MOVL AX, R13
	NOTL R13
	ANDL R13, R11
	ANDL R11, DX
	ANDL R11, DI
	ANDL R11, R10

note:
	TESTL DX, DX
	JZ   nohash
	CMPQ R8, $0
	JGE  nohash
	BSFL DX, DX
	LEAQ (R12)(DX*1), R8

nohash:
	TESTL R10, R10
	JZ   noodd
	CMPQ CX, $0
	JGE  noodd
	BSFL R10, R10
	LEAQ (R12)(R10*1), CX

noodd:
	TESTL DI, DI
	JZ   next
	BSRL DI, DI
	LEAQ (R12)(DI*1), R9

next:
	TESTL AX, AX
	JNZ  fdone
	ADDQ $32, R12
	JMP  loop

fdone:
	BSFL AX, AX
	ADDQ R12, AX
	VZEROUPPER
	MOVQ AX, nl+16(FP)
	MOVQ R8, hash+24(FP)
	MOVQ R9, last+32(FP)
	MOVQ CX, odd+40(FP)
	MOVQ R12, done+48(FP)
	RET

none:
	VZEROUPPER
	MOVQ $-1, nl+16(FP)
	MOVQ R8, hash+24(FP)
	MOVQ R9, last+32(FP)
	MOVQ CX, odd+40(FP)
	MOVQ R12, done+48(FP)
	RET
