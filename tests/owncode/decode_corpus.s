# The instructions tests/host/test_decode_zydis.c decodes twice: in the bundle's decode table
# (tools/pmu_bench_decode.py, capstone 4 and its rules) and with Zydis 4, an independent decoder
# that lists implicit memory operands. One statement a line, Intel syntax, no semicolons.
# Loads, stores and load-op forms
mov rax, [rbx]
mov [rbx], rax
mov byte ptr [rbx+rcx*4+8], 1
movzx eax, byte ptr [rbx]
movsx rax, word ptr [rbx]
movsxd rax, dword ptr [rbx]
add rax, [rbx]
sub eax, [rbx+4]
and rax, [rip+0x10]
imul rax, [rbx], 3
imul rax, [rbx]
mul qword ptr [rbx]
div qword ptr [rbx]
idiv dword ptr [rbx]
cmp [rbx], rax
cmp rax, [rbx]
test [rbx], rax
bt qword ptr [rbx], 3
bt [rbx], rax
popcnt rax, [rbx]
lzcnt rax, [rbx]
tzcnt rax, [rbx]
crc32 rax, qword ptr [rbx]
movbe rax, [rbx]
movbe [rbx], rax
cmove rax, [rbx]
sete byte ptr [rbx]
# Read-modify-write
add [rbx], rax
add qword ptr [rbx], 1
adc [rbx], rax
sbb [rbx], rax
or [rbx], rax
xor [rbx], rax
and dword ptr [rbx], 7
inc qword ptr [rbx]
dec dword ptr [rbx]
neg qword ptr [rbx]
not qword ptr [rbx]
rol qword ptr [rbx], 3
ror qword ptr [rbx], cl
shl qword ptr [rbx], 1
sar dword ptr [rbx], 2
shld [rbx], rax, 3
shrd [rbx], rax, cl
bts qword ptr [rbx], 3
btr [rbx], rax
btc qword ptr [rbx], 1
lock add [rbx], rax
lock inc qword ptr [rbx]
xchg [rbx], rax
xadd [rbx], rax
lock xadd [rbx], rax
cmpxchg [rbx], rcx
lock cmpxchg [rbx], rcx
cmpxchg8b [rbx]
cmpxchg16b [rbx]
# SSE, AVX, x87, control state
movaps xmm0, [rbx]
movaps [rbx], xmm0
movups [rbx], xmm1
movdqa xmm0, [rbx]
movdqu [rbx], xmm2
movd [rbx], xmm0
movq xmm0, [rbx]
movq [rbx], xmm0
movss xmm0, [rbx]
movss [rbx], xmm0
movsd xmm0, [rbx]
movsd [rbx], xmm0
movhps [rbx], xmm0
movlps xmm0, [rbx]
addps xmm0, [rbx]
mulsd xmm0, [rbx]
comiss xmm0, [rbx]
pshufd xmm0, [rbx], 1
pextrb byte ptr [rbx], xmm0, 1
pinsrq xmm0, [rbx], 1
movntdq [rbx], xmm0
movnti [rbx], rax
vaddps ymm0, ymm1, [rbx]
vmovdqu [rbx], ymm0
vmovaps ymm0, [rbx]
vbroadcastss ymm0, [rbx]
vmaskmovps [rbx], ymm0, ymm1
vmaskmovps ymm1, ymm0, [rbx]
vpgatherdd ymm0, [rax+ymm5*4], ymm1
vfmadd231ps ymm0, ymm1, [rbx]
fld qword ptr [rbx]
fild dword ptr [rbx]
fstp qword ptr [rbx]
fistp qword ptr [rbx]
fadd qword ptr [rbx]
fcomp dword ptr [rbx]
fnstcw word ptr [rbx]
fldcw word ptr [rbx]
fnstsw word ptr [rbx]
stmxcsr dword ptr [rbx]
ldmxcsr dword ptr [rbx]
fxsave [rbx]
fxrstor [rbx]
xsave [rbx]
xrstor [rbx]
lgdt [rbx]
sgdt [rbx]
lidt [rbx]
sidt [rbx]
# No data access, or a prefetch
lea rax, [rbx+8]
lea rax, [rip+0x100]
nop dword ptr [rax+rax]
nop
clflush [rbx]
clflushopt [rbx]
prefetcht0 [rbx]
prefetchnta [rbx]
prefetchw [rbx]
invlpg [rbx]
# The stack
push rax
push 5
push qword ptr [rbx]
pop rax
pop qword ptr [rbx]
pushfq
popfq
enter 16, 0
enter 16, 1
enter 16, 3
leave
# Control transfers
call 1f
call rax
call qword ptr [rbx]
ret
ret 8
jz 1f
jnz 1f
jc 1f
jrcxz 1f
loop 1f
loope 1f
jmp 1f
jmp rax
jmp qword ptr [rbx]
iretq
retf
syscall
sysretq
int3
int 0x80
# Strings, repeated or not
movsb
movsq
cmpsb
scasd
lodsw
stosq
insb
outsb
rep movsb
rep stosq
repe cmpsb
repne scasb
rep insb
xlatb
maskmovdqu xmm0, xmm1
# Register-only work
add rax, rbx
imul rax, rbx
xor eax, eax
vaddps ymm0, ymm1, ymm2
cpuid
rdtsc
lfence
pause
