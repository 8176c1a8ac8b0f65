/* Quads: four consecutive work-items of a 1-D work-group sharing one item of work (a scrypt
 * hash, say) and exchanging 32-bit words. A kernel that uses them keeps its control flow the same
 * for a whole work-group and masks the work-items past the end of its range in their loads and
 * stores instead of returning early, since the portable form synchronises the whole group.
 *
 * On NVIDIA's driver (KILN_OCL_NV) an exchange is a warp shuffle in inline PTX: OpenCL C 1.2 has
 * no shuffle, and the alternative, local memory with barriers, costs a store, a barrier and loads
 * where a shuffle is one instruction. The shuffles name the whole warp as their members, a
 * constant mask: with a mask in a register (a quad's own four lanes), ptxas made the r = 1 ROMix
 * kernel 2.6 times as long (sm_90). So all 32 lanes of a warp must make the same shuffles: the
 * group size a multiple of 32 (every lane a work-item, no quad across two warps), no early
 * return, and a loop whose count differs between quads runs to the warp's largest count
 * (kiln_quad_uniform_max) with the extra steps' results dropped.
 *
 * Elsewhere (PoCL in CI, AMD, Intel) the words go through __local memory, one barrier an
 * exchange: the three-word exchanges use two buffers in turn and always come in even runs (a
 * Salsa20/8 makes eight), the broadcast a third buffer, so a buffer is written again only after a
 * barrier that every read of its previous contents precedes. Two broadcasts need a three-word
 * exchange between them. Every work-item of the group makes the
 * same sequence of exchanges. The group size must be a multiple of 4 and at most
 * KILN_QUAD_MAX_GROUP.
 *
 * A quad is a value (no state changes between exchanges), so the functions that take one need
 * not be inlined to keep it in registers. */
#ifndef KILN_OCL_QUAD_H
#define KILN_OCL_QUAD_H

#define KILN_QUAD_MAX_GROUP 256

typedef struct kiln_quad {
    uint t; /* this work-item's place in its quad, 0..3 */
#if !defined(KILN_OCL_NV)
    __local uint4 *buf; /* 3 * KILN_QUAD_MAX_GROUP entries, the kernel's */
    uint lid;
#endif
} kiln_quad;

#if defined(KILN_OCL_NV)
/* The kernel declares no local memory on NVIDIA; the macro keeps its text the same for both. */
#define KILN_QUAD_LOCAL(name) __local uint4 *name = 0
#else
#define KILN_QUAD_LOCAL(name) __local uint4 name[3 * KILN_QUAD_MAX_GROUP]
#endif

static inline kiln_quad kiln_quad_init(__local uint4 *buf)
{
    kiln_quad q;
    uint lid = (uint)get_local_id(0);
    q.t = lid & 3;
#if defined(KILN_OCL_NV)
    (void)buf; /* a 1-D group's warps are its consecutive runs of 32 work-items: lane = local id mod 32 */
#else
    q.buf = buf;
    q.lid = lid;
#endif
    return q;
}

#if defined(KILN_OCL_NV)
/* v of lane `src` (mod 4) of this quad: c = 0x1c1f makes the segment 4 lanes wide. */
static inline uint kiln_quad_shfl(uint v, uint src)
{
    uint r;
    __asm__ volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1c1f, -1;" : "=r"(r) : "r"(v), "r"(src));
    return r;
}
#endif

/* (v.x from quad lane t + 1, v.y from t + 2, v.z from t + 3 (mod 4), v.w) through buffer ph
 * (0 or 1; exchanges alternate them, starting from 0). */
static inline uint4 kiln_quad_x3(kiln_quad q, uint4 v, uint ph)
{
#if defined(KILN_OCL_NV)
    (void)ph;
    return (uint4)(kiln_quad_shfl(v.x, q.t + 1), kiln_quad_shfl(v.y, q.t + 2), kiln_quad_shfl(v.z, q.t + 3), v.w);
#else
    __local uint4 *b = q.buf + ph * KILN_QUAD_MAX_GROUP;
    const uint base = q.lid & ~3u;
    b[q.lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    return (uint4)(b[base + ((q.t + 1) & 3)].x, b[base + ((q.t + 2) & 3)].y, b[base + ((q.t + 3) & 3)].z, v.w);
#endif
}

/* v of quad lane 0, for all four. */
static inline uint kiln_quad_bcast0(kiln_quad q, uint v)
{
#if defined(KILN_OCL_NV)
    (void)q;
    return kiln_quad_shfl(v, 0);
#else
    __local uint4 *b = q.buf + 2 * KILN_QUAD_MAX_GROUP;
    b[q.lid] = (uint4)(v, 0, 0, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    return b[q.lid & ~3u].x;
#endif
}

/* A count every work-item that must make the same exchanges agrees on, at least v (<= bound):
 * the warp's largest v on NVIDIA (five butterfly shuffles), bound elsewhere (the whole group
 * would have to agree, which takes barriers and a reduction). */
static inline uint kiln_quad_uniform_max(kiln_quad q, uint v, uint bound)
{
    (void)q;
#if defined(KILN_OCL_NV)
    (void)bound;
    for (uint o = 16; o > 0; o >>= 1) {
        uint w;
        __asm__ volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, -1;" : "=r"(w) : "r"(v), "r"(o));
        v = w > v ? w : v;
    }
    return v;
#else
    (void)v;
    return bound;
#endif
}

/* The flag kiln_quad_any agrees through: local memory a kernel declares beside its exchange
 * buffers (none on NVIDIA, where a warp agrees by shuffles). */
#if defined(KILN_OCL_NV)
#define KILN_QUAD_FLAG(name) __local uint *name = 0
#else
#define KILN_QUAD_FLAG(name) __local uint name[1]
#endif

/* Whether v is nonzero for any work-item that must make the same exchanges as this one: the
 * warp on NVIDIA (kiln_quad_uniform_max's shuffles), the whole group elsewhere (a flag in local
 * memory, cleared, raised and read between barriers; the first barrier lets every read of the
 * previous answer finish). Every work-item of the group calls it alike. */
static inline uint kiln_quad_any(kiln_quad q, uint v, __local uint *flag)
{
#if defined(KILN_OCL_NV)
    (void)flag;
    return kiln_quad_uniform_max(q, v != 0, 1);
#else
    barrier(CLK_LOCAL_MEM_FENCE);
    if (q.lid == 0) *flag = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (v) *flag = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    return *flag;
#endif
}

#endif
