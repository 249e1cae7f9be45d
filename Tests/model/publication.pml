/*
 * publication.pml: a Promela model of how the router publishes its lookup tables to readers and
 * when it may free the nodes an update replaced. Checked by spin; Tests/model/check.sh runs it
 * (make model). docs/RELIABILITY.md ("The publication model") gives the results.
 *
 * The design modelled: ONE copy of the tables (not the two sides of the current PublishedTables),
 * updated read-copy-update style. An update never changes a node readers can reach: it writes new
 * versions of the nodes on the path it changes, publishes the new root with one atomic store,
 * waits for a grace period, then frees the nodes it replaced, which the allocator may hand out
 * again for other contents.
 *
 * Mapping to the Swift code:
 *
 *   slot[r]       ReaderSlot.state (Sources/FastRouter/Table/ReaderRegistry.swift), the word only
 *                 reader r writes: the number of lookups it has started times GENERATION (4),
 *                 plus IN_LOOKUP (1) while it is inside one. The HOLDING bit (2) and the listed
 *                 payloads serve payload reclamation (PayloadReclaimer), not node reclamation,
 *                 and are left out; so is ReaderSlot.router (the model has one router).
 *   enter         ReaderSlot.enter(router:): store (count + 1) * GENERATION | IN_LOOKUP,
 *                 sequentially consistent.
 *   exit          ReaderSlot.exit(holding: false): store the word without IN_LOOKUP, releasing.
 *   root          the published root pointer of the tables (the role PublishedTables.activeSide
 *                 plays for the two sides today): readers load it sequentially consistent after
 *                 enter; the writer stores it sequentially consistent to publish.
 *   node[]        the node buffer, with a small pool so that freed nodes are reused. A root node
 *                 has KEYS child pointers (one per route key); each child is a leaf. A node is
 *                 stamped with the number of the update that wrote it, and a root records the
 *                 stamp of each child it points to.
 *   Writer        one writer: writers are serialized by the router's writer lock.
 *   grace period  ReaderRegistry.waitForReaders(in:): read every slot (sequentially consistent)
 *                 and remember those with IN_LOOKUP set, then for each wait until its word
 *                 differs from the value seen.
 *   retire list   oldRoot and oldChild in Writer: the nodes the update replaced (the old root,
 *                 and the old child of the key it changed), freed after the grace period. Freed
 *                 nodes go back to the pool (as freed entries go to TableSide's free lists), and
 *                 the next update reuses them.
 *
 * Memory model. Spin interleaves whole statements: it checks the protocol under sequential
 * consistency. That is what the Swift orderings give the steps that matter. The reader's enter
 * store and root load and the writer's root store and slot loads are all sequentially consistent,
 * so they fall in one total order: either the writer's scan sees the reader's IN_LOOKUP, or the
 * reader's root load sees the new root (the store-buffering case a release store and an acquire
 * load would allow is excluded; the LATEENTER variant below shows what it would break). The
 * root load also acquires the writer's node writes made before publication. The reader's exit is
 * a release store and the writer's waiting loads are sequentially consistent (acquiring), so
 * every read of a lookup happens before the writer frees what it read. A later enter (a new
 * count) is a store of the same reader after those reads, so seeing it is as good.
 *
 * Properties checked (assert; a violation stops pan with "assertion violated"):
 *   1. No reader reads a node that was freed, or freed and reused, since it loaded the root it
 *      reached the node from: the writer, when it frees node n, sets bit n of the ghost mask
 *      stale[r] of every reader inside a lookup; a reader clears its mask in the same step as it
 *      loads the root and asserts the bit of each node it reads is clear (and that the node is
 *      allocated).
 *   2. No reader sees a half-applied update: the stamp of the child a reader reaches equals the
 *      stamp its root recorded for that child.
 *   3. No process blocks for good: pan reports a state in which a process cannot move and is not
 *      at its end as an invalid end state. Every reader stops after LOOKUPS lookups, so this
 *      shows that the grace period ends once the readers it waits for have left the lookups it
 *      saw them in; it says nothing about a writer starved by readers that never stop.
 * Two readers of LOOKUPS lookups each, one writer of UPDATES updates (each adds, replaces or
 * removes the child of one of two keys, chosen nondeterministically), a pool of NODES nodes.
 * The search is exhaustive: every interleaving of their steps (each statement, atomic or d_step
 * block below is one step).
 *
 * Variants (spin -D...), each of which must fail (check.sh checks that it does, and which
 * property fails):
 *   NOGRACE       the writer frees the replaced nodes right after publishing: property 1.
 *   LATEENTER     the reader loads the root before it announces itself in its slot (what a
 *                 store-load reordering would do without the sequentially consistent enter):
 *                 property 1.
 *   EARLYPUBLISH  the writer publishes the new root before it has written the new child:
 *                 property 2.
 */

#ifndef UPDATES
#define UPDATES 3
#endif
#ifndef LOOKUPS
#define LOOKUPS 3
#endif

#define READERS     2
#define NODES       5    /* a root and two children live, a new root and a new child being written */
#define KEYS        2
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
byte slot[READERS];        /* ReaderSlot.state of each reader */

/* Ghost state for property 1 (no code counterpart). */
bool reading[READERS];     /* the reader has loaded a root and not yet exited */
byte stale[READERS];       /* bit n: node n was freed since the reader loaded its root */

#define FRESH(r, n)     ((stale[r] & (1 << (n))) == 0)

/* Takes the lowest-numbered free node (inside an atomic block), so an update reuses at once the
 * nodes the one before it freed. Five nodes are always enough: three reachable from the root,
 * two new ones. */
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
 * the state space small and loses nothing: reading a freed node at all fails property 1. A
 * reader that loaded its root before this step and still reads n from it violates property 1. */
inline reclaim(n) {
    node[n].live = false;
    node[n].stamp = 0;
    node[n].child[0] = NIL;
    node[n].child[1] = NIL;
    node[n].childStamp[0] = 0;
    node[n].childStamp[1] = 0;
    if
    :: reading[0] -> stale[0] = stale[0] | (1 << n)
    :: else -> skip
    fi;
    if
    :: reading[1] -> stale[1] = stale[1] | (1 << n)
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

/* A reader: LOOKUPS lookups, each down the path of either key. Each statement below is one
 * atomic step; the other processes may run between any two. */
proctype Reader(byte me) {
    byte lookups = 0;
    byte key, r, c, expected;
    do
    :: lookups < LOOKUPS ->
#ifndef LATEENTER
        /* enter: the slot word (count + 1) * GENERATION | IN_LOOKUP, sequentially consistent */
        atomic {
            if
            :: key = 0
            :: key = 1
            fi;
            slot[me] = (slot[me] & ~FLAGS) + GENERATION | IN_LOOKUP
        };
        /* load the published root, sequentially consistent */
        d_step { r = root; reading[me] = true; stale[me] = 0 };
#else
        atomic {
            if
            :: key = 0
            :: key = 1
            fi;
            r = root; reading[me] = true; stale[me] = 0
        };
        slot[me] = (slot[me] & ~FLAGS) + GENERATION | IN_LOOKUP;
#endif
        /* read the root node */
        d_step {
            assert(node[r].live && FRESH(me, r));
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
        /* exit: the slot word without IN_LOOKUP, releasing */
        d_step {
            slot[me] = slot[me] & ~FLAGS;
            reading[me] = false;
            stale[me] = 0;
            key = 0; r = 0; c = 0; expected = 0;
            lookups++
        }
    :: else -> break
    od
}

/* The writer: UPDATES updates, one after the other (the writer lock). */
proctype Writer() {
    byte update = 1;
    byte key, oldRoot, oldChild, newRoot, newChild, i;
    byte seen[READERS];
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
        /* publish: one sequentially consistent store */
        root = newRoot;
#ifdef EARLYPUBLISH
        atomic { writeChild() };
#endif
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
        :: else -> break
        od;
#endif
        /* Free what the update replaced (its retire list): the old root, and the old child of
         * the key it changed. */
        atomic {
            reclaim(oldRoot);
            if
            :: oldChild != NIL -> reclaim(oldChild)
            :: else -> skip
            fi;
            key = 0; oldRoot = 0; oldChild = 0; newRoot = 0; newChild = 0; i = 0;
            seen[0] = 0; seen[1] = 0;
            update++
        }
    :: else -> break
    od
}

init {
    /* The initial tables: root 0 with child 1 for key 0 and no child for key 1; 2, 3, 4 free. */
    d_step {
        node[0].live = true;
        node[0].child[0] = 1;
        node[0].child[1] = NIL;
        node[1].live = true;
        node[1].child[0] = NIL;
        node[1].child[1] = NIL;
        node[2].child[0] = NIL;
        node[2].child[1] = NIL;
        node[3].child[0] = NIL;
        node[3].child[1] = NIL;
        node[4].child[0] = NIL;
        node[4].child[1] = NIL;
        root = 0
    };
    atomic {
        run Reader(0);
        run Reader(1);
        run Writer()
    }
}
