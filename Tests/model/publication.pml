/*
 * publication.pml: a Promela model of how the router publishes its lookup tables to readers,
 * how a reader keeps the version it walked for later declines (a pin), and when the writer may
 * free the nodes an update replaced. Checked by spin; Tests/model/check.sh runs it (make model).
 * docs/RELIABILITY.md ("The publication model") gives the results.
 *
 * The design modelled: ONE copy of the tables, updated read-copy-update style. An update never
 * changes a node readers can reach: it writes new versions of the nodes on the path it changes,
 * publishes the new root with one atomic store, waits for a grace period, then reads the oldest
 * version any reader pins. What the old version replaced is freed at once when no reader pins
 * that version or an older one; otherwise it waits in the retired list, tagged with the old
 * version, and each later publication frees the retired entries older than the oldest pin (all
 * of them when nothing is pinned). Freed nodes may be handed out again for other contents.
 * An update may also skip its grace period (adds do, until enough replaced blocks await one):
 * what it replaced then goes straight to the retired list, and the sweep after a later update's
 * grace period frees it. The model lets the first update do so.
 *
 * Mapping to the Swift code:
 *
 *   slot[r]       ReaderSlot.state (Sources/FastRouter/Table/ReaderRegistry.swift), the word only
 *                 reader r writes: the number of lookups it has started times GENERATION (4
 *                 here, 8 in the code, whose third bit, ReaderSlot.plainEnter, never changes),
 *                 plus IN_LOOKUP (1) while it is inside one. The HOLDING bit (2) and the listed
 *                 payloads serve payload reclamation (PayloadReclaimer), not node reclamation,
 *                 and are left out; so is ReaderSlot.router (the model has one router).
 *   pinned[r]     ReaderSlot.pinned: the version of the tables reader r keeps for declines, 0 for
 *                 none. Only reader r writes it.
 *   enter         ReaderSlot.enter(router:): store (count + 1) * GENERATION | IN_LOOKUP. Where
 *                 the kernel offers membarrier(2) (ReaderSlot.plainEnter; the default here), a
 *                 plain store behind a compiler barrier: it may wait in the reader's store
 *                 buffer (pending[r]), unseen by the writer, past the reader's root load, until
 *                 the reader's next store to the slot (a store buffer keeps its order) or the
 *                 writer's fence drains it.
 *                 Elsewhere (-DFENCEDENTER) sequentially consistent, seen at once.
 *   fence         ProcessFence.fence(), membarrier(2), which waitForReaders calls before it reads
 *                 the slots (where lookups enter plainly): every reader's store buffer drains.
 *   exit          ReaderSlot.exit(holding: false): store the word without IN_LOOKUP, releasing.
 *   pin           ReaderSlot.pin(_:), in RouterCore.match(url:into:collectingAll:) when the
 *                 lookup passed over other candidates: store the version it walked (read from
 *                 its roots) in pinned[r], releasing, inside the lookup: after loading the root,
 *                 before exit. The model lets every lookup pin or not.
 *   decline       RouterCore.decline(into:): walks the pinned version's roots again (the reader
 *                 kept the pointer, ScratchState.pinnedRoots) without entering the slot, at any
 *                 later time and any number of times while the pin is set: here, re-reads the
 *                 root and the child the lookup read.
 *   unpin         ReaderSlot.unpin(): store 0 in pinned[r], releasing. The reader unpins when it
 *                 starts its next lookup (before enter), when its result is cleared
 *                 (MatchScratch.clearResult) or when a decline runs out of candidates: each is
 *                 one store after its last decline of the version and before its next enter, so
 *                 the model has one unpin step, which a pinned reader may take at any time
 *                 (and must take before its next lookup). It may also keep its last pin for
 *                 good.
 *   root          PublishedTables.roots (Sources/FastRouter/Table/PublishedTables.swift), the
 *                 published TableRoots: readers load it sequentially consistent after enter
 *                 (PublishedTables.current); the writer stores it sequentially consistent to
 *                 publish (PublishedTables.publish).
 *   version       TableRoots.version: 1 for the initial tables, one more at each publication. A
 *                 root node here is stamped with the update that wrote it, so its version is its
 *                 stamp + 1; update u replaces version u with version u + 1.
 *   node[]        the node buffer, with a pool so that freed nodes are reused. A root node has
 *                 KEYS child pointers (one per route key); each child is a leaf. A node is
 *                 stamped with the number of the update that wrote it, and a root records the
 *                 stamp of each child it points to.
 *   Writer        one writer: writers are serialized by the router's writer lock.
 *   grace period  ReaderRegistry.waitForReaders(in:): read every slot (sequentially consistent)
 *                 and remember those with IN_LOOKUP set, then for each wait until its word
 *                 differs from the value seen.
 *   oldest pin    ReaderRegistry.oldestPin(of:), after the grace period: read every slot's
 *                 pinned word (acquiring), one at a time, and keep the smallest non-zero one.
 *   replaced      oldRoot and oldChild in Writer: what the update replaced (the old root, and the
 *                 old child of the key it changed), retired.append(version: u, ...) in publish.
 *   retired list  keptRoot[v] and keptChild[v] in Writer: the retired entry tagged with version v
 *                 (what update v replaced), NIL when there is none. PublishedTables.publish
 *                 appends the new entry when the oldest pin is <= the old version (else frees it
 *                 at once), then frees every entry whose version is < the oldest pin, or every
 *                 entry when nothing is pinned. Freed nodes go back to the pool (as freed blocks
 *                 go back to the allocator), and the next update reuses them.
 *
 * Memory model. Spin interleaves whole statements: it checks the protocol under sequential
 * consistency, except for the one reordering the code allows on purpose: a plain enter store
 * that stays in the reader's store buffer while its root load goes ahead (modelled above). With
 * FENCEDENTER the reader's enter store and root load and the writer's root store and slot loads
 * are all sequentially consistent, so they fall in one total order: either the writer's scan
 * sees the reader's IN_LOOKUP, or the reader's root load sees the new root (the store-buffering
 * case a release store and an acquire load would allow is excluded; the LATEENTER variant below
 * shows what it would break). With a plain enter, membarrier gives the same: when it returns,
 * each reader has executed a full fence after the writer's root store, so a reader whose enter
 * was stored before that fence is seen by the scan, and one whose enter came after loads the
 * new root (NOMEMBARRIER shows what the fence prevents). The
 * root load also acquires the writer's node writes made before publication. The reader's exit is
 * a release store and the writer's waiting loads are sequentially consistent (acquiring), so
 * every read of a lookup happens before the writer frees what it read. A later enter (a new
 * count) is a store of the same reader after those reads, so seeing it is as good.
 * Pins: a reader whose lookup loaded a root older than the one just published entered before the
 * writer's scan in that total order, so the scan (or the wait after it) reads that lookup's exit
 * or a later store of the slot (every store to the slot word releases), and synchronizes with it.
 * The pin is a release store before the exit, so it happens before the writer's acquiring load
 * of the pinned word, which therefore reads the pin or a later store of the same reader: its
 * unpin, or a newer pin after that unpin; both release, and the reader's declines of the pinned
 * version come before its unpin, so they happen before the writer frees anything of it. A reader
 * whose lookup loaded the new root pins the new version or a later one, which this update does
 * not free. So here too the interleavings below are all the orders that can be observed. The
 * LATEPIN variant shows why the pin must come before the exit.
 *
 * Properties checked (assert; a violation stops pan with "assertion violated"):
 *   1. No reader reads a node that was freed, or freed and reused, since it loaded the root it
 *      reached the node from: the writer, when it frees node n, sets bit n of the ghost mask
 *      stale[r] of every reader that holds a root it reaches n from (ghost mask holds[r]: the
 *      root and the child for the reader's key, from the root load until the exit of a lookup
 *      that did not pin, or until the unpin); a reader clears its mask in the same step as it
 *      loads the root, and asserts the bit of each node it reads is clear (and that the node is
 *      allocated).
 *   2. No reader sees a half-applied update: the stamp of the child a reader reaches equals the
 *      stamp its root recorded for that child.
 *   3. No process blocks for good: pan reports a state in which a process cannot move and is not
 *      at its end as an invalid end state. Every reader stops after LOOKUPS lookups, so this
 *      shows that the grace period ends once the readers it waits for have left the lookups it
 *      saw them in, and that pins never make the writer wait (a reader may keep its last pin for
 *      good); it says nothing about a writer starved by readers that never stop.
 *   4. A reader's declines never read a node of its pinned version that was freed, or freed and
 *      reused, since its lookup loaded that version's root, however long after the lookup and
 *      however many updates later (the mask of property 1, kept until the unpin); and it reads
 *      them only while it pins that version.
 *   5. What a decline re-reads is the version it pinned: the root carries that version's stamp
 *      and still points to the child the lookup read, with the same recorded stamp, and that
 *      child carries the stamp the root records.
 * Two readers of LOOKUPS lookups each, each lookup followed by any number of declines when it
 * pinned; one writer of UPDATES updates (each adds, replaces or removes the child of one of two
 * keys, chosen nondeterministically); a pool of NODES nodes. The search is exhaustive: every
 * interleaving of their steps (each statement, atomic or d_step block below is one step).
 *
 * Bounds. Declines cost no states: a reader is in the same state after a decline as before it,
 * so their number is unbounded. Pins make the state space grow fast with lookups and updates:
 * a pinned reader keeps its root, its version and the nodes that version reaches across the
 * writer's updates, and the retired list keeps a different set of nodes allocated for each
 * history of pins. Before pins, 3 updates and 3 lookups per reader took 5.3 million states;
 * with pins, 3 updates and 2 lookups take 39 million (about 1.8 GB with check.sh's settings),
 * 3 updates and 3 lookups 127 million, 4 updates and 2 lookups 240 million. So the default is
 * 3 updates and 2 lookups per reader: enough for a reader to pin the initial version and
 * decline after all three updates, for both readers to pin different versions at once (the
 * oldest pin is the smaller), for a reader to unpin and pin a newer version, and for the sweep
 * to free an entry while a newer one stays. Other bounds: check.sh -DUPDATES=N -DLOOKUPS=N
 * (docs/RELIABILITY.md gives the figures and times).
 *
 * Variants (spin -D...), each of which must fail (check.sh checks that it does, and which
 * property fails):
 *   NOGRACE       the writer frees the replaced nodes right after publishing: property 1.
 *   LATEENTER     the reader loads the root before it announces itself in its slot (what a
 *                 store-load reordering would do without the sequentially consistent enter):
 *                 property 1.
 *   NOMEMBARRIER  the reader enters with a plain store, and the writer reads the slots without
 *                 the process-wide fence: property 1.
 * FENCEDENTER is not a broken variant but the protocol's other form, which must pass too.
 *   EARLYPUBLISH  the writer publishes the new root before it has written the new child:
 *                 property 2.
 *   NOPIN         the writer ignores pins: it frees what an update replaced after the grace
 *                 period, as before pins existed: property 4.
 *   LATEPIN       the reader pins after its exit instead of before: property 4.
 *   SWEEPPINNED   the writer's sweep of the retired list frees the entries whose version is <=
 *                 the oldest pin instead of <, the pinned version's own entry too: property 4.
 */

#ifndef UPDATES
#define UPDATES 3
#endif
#ifndef LOOKUPS
#define LOOKUPS 2
#endif

#define READERS     2
#define KEYS        2
/* The tables (a root and up to two children), what each retired version keeps (a root and at
 * most one child; the entries of UPDATES - 1 versions may be kept when the next update
 * allocates), and a new root and a new child being written. The ghost masks are ints, so
 * UPDATES can be at most 14. */
#define NODES       (2 * UPDATES + 3)
#define NIL         255
#define IN_LOOKUP   1    /* ReaderSlot.inLookup */
#define HOLDING     2    /* ReaderSlot.holding: never set here */
#define FLAGS       3    /* IN_LOOKUP | HOLDING */
#define GENERATION  4    /* ReaderSlot.generation */

typedef Node {
    bool live;             /* allocated: not free */
    byte stamp;            /* the update that wrote this version (0: the initial tables) */
    byte child[KEYS];      /* root: the child for each key, or NIL */
    byte childStamp[KEYS]; /* root: the stamp that child carries */
};

Node node[NODES];
byte root;                 /* the published root */
byte slot[READERS];        /* ReaderSlot.state of each reader, as the writer sees it */
bool pending[READERS];     /* the reader's enter store is still in its store buffer */

/* The reader's store buffer drains: its enter store, the next count with IN_LOOKUP, reaches the
 * slot. It drains here, when the reader exits or the writer fences, and nowhere earlier: a store
 * seen sooner only makes the writer wait for more readers (with FENCEDENTER, every enter is seen
 * at once, and that protocol passes too). */
#if !defined(FENCEDENTER) && !defined(LATEENTER)
#define DRAIN(r)        if :: pending[r] -> slot[r] = (slot[r] & ~FLAGS) + GENERATION | IN_LOOKUP; pending[r] = false :: else -> skip fi
#else
/* Lookups that store their enter at once, sequentially consistent: nothing waits in a buffer. */
#define DRAIN(r)        skip
#endif
byte pinned[READERS];      /* ReaderSlot.pinned of each reader: a version, 0 for none */

/* Ghost state for properties 1 and 4 (no code counterpart). */
int holds[READERS];        /* bit n: node n is one the reader reads from the root it loaded (that
                            * root, and its child for the reader's key), from the root load until
                            * the reader lets go (the exit of a lookup that did not pin, or the
                            * unpin); 0 while it holds no root */
int stale[READERS];        /* bit n: node n, one of those, was freed since the reader loaded its
                            * root */

#define FRESH(r, n)     ((stale[r] & (1 << (n))) == 0)
/* The reader loads root r to look up key: the nodes it reads from it are r and r's child for
 * key, which the ghost reads here (r is published, so live, and no node of it changes later). */
#define HOLD(me, r, key) \
    holds[me] = (1 << (r)) | (node[r].child[key] != NIL -> 1 << node[r].child[key] : 0); \
    stale[me] = 0

/* Takes the lowest-numbered free node (inside an atomic block), so an update reuses at once the
 * nodes the one before it freed. NODES nodes are always enough (see its definition). */
inline allocate(n) {
    n = 0;
    do
    :: n < NODES && node[n].live -> n++
    :: else -> break
    od;
    assert(n < NODES);
    node[n].live = true
}

/* Frees node n (inside an atomic block): back to the pool. Its contents are cleared, which keeps
 * the state space small and loses nothing: reading a freed node at all fails property 1 or 4. A
 * reader that holds a root it loaded before this step and still reads n from it violates
 * property 1 (in its lookup) or 4 (in a decline). */
inline reclaim(n) {
    node[n].live = false;
    node[n].stamp = 0;
    node[n].child[0] = NIL;
    node[n].child[1] = NIL;
    node[n].childStamp[0] = 0;
    node[n].childStamp[1] = 0;
    stale[0] = stale[0] | (holds[0] & (1 << n));
    stale[1] = stale[1] | (holds[1] & (1 << n))
}

/* Frees the nodes of one replaced version (its root and, unless NIL, its child). */
inline reclaimVersion(oldR, oldC) {
    reclaim(oldR);
    if
    :: oldC != NIL -> reclaim(oldC)
    :: else -> skip
    fi
}

/* The writer's new versions, written before publication (EARLYPUBLISH: the child after). */
inline writeChild() {
    if
    :: newChild != NIL -> node[newChild].stamp = update
    :: else -> skip
    fi
}
inline writeRoot() {
    node[newRoot].stamp = update;
    node[newRoot].child[key] = newChild;
    node[newRoot].childStamp[key] = (newChild != NIL -> update : 0);
    /* the unchanged child is shared with the old root, not copied */
    node[newRoot].child[1 - key] = node[oldRoot].child[1 - key];
    node[newRoot].childStamp[1 - key] = node[oldRoot].childStamp[1 - key]
}

/* The retired-list sweep's test: entry v is freed (SWEEPPINNED: also the pinned version's). */
#ifndef SWEEPPINNED
#define SWEPT(v)    (oldest == 0 || (v) < oldest)
#else
#define SWEPT(v)    (oldest == 0 || (v) <= oldest)
#endif

/* A reader: LOOKUPS lookups, each down the path of either key; after a lookup that pins, any
 * number of declines until the reader unpins. Each statement below is one atomic step; the
 * other processes may run between any two. */
proctype Reader(byte me) {
    byte lookups = 0;
    byte key, r, c, expected, ver;
    do
    :: pinned[me] != 0 ->
        /* A decline, outside any lookup (the slot is not entered): it walks the pinned version
         * again, its root then its child. One step here: nothing writes a node of a published
         * version, and whether one of them was freed only changes one way until the unpin, so
         * reading the root and the child at one moment finds every error that reading them at
         * two moments would. */
        d_step {
            assert(pinned[me] == ver && node[r].live && FRESH(me, r));
            assert(node[r].stamp + 1 == ver && node[r].child[key] == c &&
                   node[r].childStamp[key] == expected);
            if
            :: c != NIL ->
                assert(pinned[me] == ver && node[c].live && FRESH(me, c));
                assert(node[c].stamp == expected)
            :: else -> skip
            fi
        }
    :: pinned[me] != 0 ->
        /* unpin (ReaderSlot.unpin: a release store of 0): lets the writer free the version.
         * A reader may also keep its last pin for good. */
        d_step {
            pinned[me] = 0;
            holds[me] = 0; stale[me] = 0;
            key = 0; r = 0; c = 0; expected = 0; ver = 0
        }
    :: pinned[me] == 0 && lookups < LOOKUPS ->
#if defined(FENCEDENTER)
        /* enter: the slot word (count + 1) * GENERATION | IN_LOOKUP, sequentially consistent */
        atomic {
            if
            :: key = 0
            :: key = 1
            fi;
            slot[me] = (slot[me] & ~FLAGS) + GENERATION | IN_LOOKUP
        };
        /* load the published root, sequentially consistent */
        d_step { r = root; HOLD(me, r, key) };
#elif !defined(LATEENTER)
        /* enter: the same word, stored plainly: it waits in the reader's store buffer, where
         * the writer cannot see it, until it drains (at any time, at the latest before the
         * reader's next store to the slot) or the writer's process-wide fence drains it */
        atomic {
            if
            :: key = 0
            :: key = 1
            fi;
            pending[me] = true
        };
        /* load the published root, which the store in the buffer does not delay */
        d_step { r = root; HOLD(me, r, key) };
#else
        atomic {
            if
            :: key = 0
            :: key = 1
            fi;
            r = root; HOLD(me, r, key)
        };
        slot[me] = (slot[me] & ~FLAGS) + GENERATION | IN_LOOKUP;
#endif
        /* read the root node, and its version (TableRoots.version) */
        d_step {
            assert(node[r].live && FRESH(me, r));
            ver = node[r].stamp + 1;
            c = node[r].child[key];
            expected = node[r].childStamp[key]
        };
        /* read the child it points to, if any */
        if
        :: c != NIL ->
            d_step {
                assert(node[c].live && FRESH(me, c));
                assert(node[c].stamp == expected)
            }
        :: else -> skip
        fi;
#ifndef LATEPIN
        /* pin, when the lookup passed over candidates: a release store, before the exit */
        if
        :: pinned[me] = ver
        :: skip
        fi;
#endif
        /* exit: the slot word without IN_LOOKUP, releasing (behind the enter, if still
         * buffered: a store buffer keeps its order). A reader that did not pin lets go of its
         * root here. */
        d_step {
            DRAIN(me);
            slot[me] = slot[me] & ~FLAGS;
            lookups++;
#ifndef LATEPIN
            if
            :: pinned[me] == 0 ->
                holds[me] = 0; stale[me] = 0;
                key = 0; r = 0; c = 0; expected = 0; ver = 0
            :: else -> skip
            fi
#endif
        }
#ifdef LATEPIN
        ;
        pinned[me] = ver
#endif
    :: lookups == LOOKUPS -> break
    od
}

/* The writer: UPDATES updates, one after the other (the writer lock). */
proctype Writer() {
    byte update = 1;
    byte key, oldRoot, oldChild, newRoot, newChild, i, oldest, v;
    byte seen[READERS];
    byte keptRoot[UPDATES + 1];    /* the retired list: entry v (versions 1 to UPDATES) */
    byte keptChild[UPDATES + 1];
    d_step {
        do
        :: v <= UPDATES -> keptRoot[v] = NIL; keptChild[v] = NIL; v++
        :: else -> v = 0; break
        od
    };
    do
    :: update <= UPDATES ->
        /* Which key changes, and how: add or replace its child (a new child node) or remove it
         * (none). The new versions are written where no reader can reach them, so this block
         * is one step: readers cannot tell its parts apart. */
        atomic {
            if
            :: key = 0
            :: key = 1
            fi;
            oldRoot = root;
            oldChild = node[oldRoot].child[key];
            allocate(newRoot);
            if
            :: oldChild == NIL -> allocate(newChild)    /* add */
            :: oldChild != NIL -> allocate(newChild)    /* replace */
            :: oldChild != NIL -> newChild = NIL        /* remove */
            fi;
#ifndef EARLYPUBLISH
            writeChild();
#endif
            writeRoot()
        };
        /* publish: one sequentially consistent store (version update + 1) */
        root = newRoot;
#if !defined(FENCEDENTER) && !defined(NOMEMBARRIER)
        /* the process-wide fence (ProcessFence.fence, membarrier): every reader's buffered
         * store drains before the writer reads a slot */
        d_step { DRAIN(0); DRAIN(1) };
#endif
#ifdef EARLYPUBLISH
        atomic { writeChild() };
#endif
        if
        :: update == 1 ->
            /* A publication that leaves its grace period to a later one (PublishedTables.publish:
             * an add, while few replaced blocks await one): what it replaced joins the retired
             * list as version `update`'s entry, for a later sweep to free. The first update
             * only: on every one, the search outgrows check.sh's memory. */
            atomic {
                keptRoot[update] = oldRoot;
                keptChild[update] = oldChild;
                key = 0; oldRoot = 0; oldChild = 0; newRoot = 0; newChild = 0;
                update++
            }
        :: true ->
#ifndef NOGRACE
        /* Grace period (ReaderRegistry.waitForReaders): read every slot, then wait for each
         * reader seen inside a lookup to move on (exit, or enter a newer lookup). */
        do
        :: i < READERS -> d_step { seen[i] = slot[i]; i++ }
        :: else -> i = 0; break
        od;
        do
        :: i < READERS ->
            if
            :: (seen[i] & IN_LOOKUP) != 0 -> (slot[i] != seen[i])
            :: else -> skip
            fi;
            i++
        :: else ->
            /* what was seen is not used any more: cleared, so that it does not tell states apart */
            d_step { i = 0; seen[0] = 0; seen[1] = 0 };
            break
        od;
#endif
#ifndef NOPIN
        /* The oldest pin (ReaderRegistry.oldestPin): every slot's pinned word, one at a time. */
        do
        :: i < READERS ->
            d_step {
                if
                :: pinned[i] != 0 && (oldest == 0 || pinned[i] < oldest) -> oldest = pinned[i]
                :: else -> skip
                fi;
                i++
            }
        :: else -> break
        od;
#endif
        /* What the update replaced (the old root, and the old child of the key it changed) is
         * version `update`'s entry: kept when a reader pins that version or an older one, else
         * freed at once. Then the sweep frees the entries older than the oldest pin (all of them
         * when nothing is pinned). */
        atomic {
            if
            :: oldest != 0 && oldest <= update ->
                keptRoot[update] = oldRoot;
                keptChild[update] = oldChild
            :: else ->
                reclaimVersion(oldRoot, oldChild)
            fi;
            v = 1;
            do
            :: v <= update ->
                if
                :: keptRoot[v] != NIL && SWEPT(v) ->
                    reclaimVersion(keptRoot[v], keptChild[v]);
                    keptRoot[v] = NIL;
                    keptChild[v] = NIL
                :: else -> skip
                fi;
                v++
            :: else -> break
            od;
            key = 0; oldRoot = 0; oldChild = 0; newRoot = 0; newChild = 0; i = 0; oldest = 0; v = 0;
            update++
        }
        fi
    :: else -> break
    od
}

init {
    /* The initial tables (version 1): root 0 with child 1 for key 0 and no child for key 1; the
     * other nodes free. */
    byte n;
    d_step {
        do
        :: n < NODES -> node[n].child[0] = NIL; node[n].child[1] = NIL; n++
        :: else -> n = 0; break
        od;
        node[0].live = true;
        node[0].child[0] = 1;
        node[1].live = true;
        root = 0
    };
    atomic {
        run Reader(0);
        run Reader(1);
        run Writer()
    }
}
