//go:build !purego

#include "textflag.h"

// func lineScanAVX2(s string) (nl, hash, last, done int)
//
// Thirty-two bytes at a time: the '\n', '#' and '[' of each block as three masks. A block
// notes its first '#' (unless one was noted) and its last '['; the block with a '\n' keeps
// only the bits below it first, and ends the scan. Only len(s)&^31 bytes; the rest are the caller's.
TEXT ·lineScanAVX2(SB), NOSPLIT, $0-48
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	ANDQ $~31, BX
	// The three MOVDs (SSE) before any VEX instruction: an SSE one after a 256-bit one
	// pays for the change of state, and this runs once a line.
	MOVL $0x0a0a0a0a, AX // '\n'
	MOVD AX, X1
	MOVL $0x23232323, AX // '#'
	MOVD AX, X2
	MOVL $0x5b5b5b5b, AX // '['
	MOVD AX, X3
	VPBROADCASTD X1, Y1
	VPBROADCASTD X2, Y2
	VPBROADCASTD X3, Y3
	MOVQ $-1, R8 // hash
	MOVQ $-1, R9 // last
	XORQ R12, R12 // the offset of the block

loop:
	CMPQ R12, BX
	JAE  none
	VMOVDQU (SI)(R12*1), Y0
	VPCMPEQB Y1, Y0, Y4
	VPCMPEQB Y2, Y0, Y5
	VPCMPEQB Y3, Y0, Y6
	VPMOVMSKB Y4, AX
	VPMOVMSKB Y5, DX
	VPMOVMSKB Y6, DI
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

note:
	TESTL DX, DX
	JZ   nohash
	CMPQ R8, $0
	JGE  nohash
	BSFL DX, DX
	LEAQ (R12)(DX*1), R8

nohash:
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
	MOVQ R12, done+40(FP)
	RET

none:
	VZEROUPPER
	MOVQ $-1, nl+16(FP)
	MOVQ R8, hash+24(FP)
	MOVQ R9, last+32(FP)
	MOVQ R12, done+40(FP)
	RET
