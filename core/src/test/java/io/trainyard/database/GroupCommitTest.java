package io.trainyard.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;

class GroupCommitTest {

    /** An item the fake database refuses, as a unique key already taken. */
    private static final int TAKEN = -1;

    /** What the fake database committed: each transaction's items. */
    private final List<List<Integer>> transactions = new CopyOnWriteArrayList<>();
    /** Item 0's transaction holds the writer until released, so that the others queue up behind it. */
    private final CountDownLatch firstCommitting = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    private List<String> commit(List<Integer> items) {
        if (items.contains(0)) {
            firstCommitting.countDown();
            await(release);
        }
        if (items.contains(TAKEN)) {
            throw new DuplicateKeyException(TAKEN + " is taken");
        }
        transactions.add(List.copyOf(items));
        return items.stream().map(item -> "stored " + item).toList();
    }

    @Test
    void callersWaitingWhileATransactionCommitsAreCommittedTogetherInTheNext() throws Exception {
        try (GroupCommit<Integer, String> commits = new GroupCommit<>("test-commits", 64, this::commit);
                ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> first = callers.submit(() -> commits.write(0));
            assertThat(firstCommitting.await(10, TimeUnit.SECONDS)).isTrue();
            List<Future<String>> others = new ArrayList<>();
            for (int i = 1; i <= 15; i++) {
                int item = i;
                others.add(callers.submit(() -> commits.write(item)));
            }
            waitUntilQueued(others);
            release.countDown();
            assertThat(first.get()).isEqualTo("stored 0");
            for (int i = 0; i < others.size(); i++) {
                assertThat(others.get(i).get()).isEqualTo("stored " + (i + 1));
            }
        }
        assertThat(transactions).hasSize(2);
        assertThat(transactions.get(1)).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    }

    @Test
    void oneItemsFailureFailsOnlyItsCallerWithItsOwnException() throws Exception {
        try (GroupCommit<Integer, String> commits = new GroupCommit<>("test-commits", 64, this::commit);
                ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            callers.submit(() -> commits.write(0));
            assertThat(firstCommitting.await(10, TimeUnit.SECONDS)).isTrue();
            List<Future<String>> batch = new ArrayList<>();
            for (int item : List.of(12, TAKEN, 14)) {
                batch.add(callers.submit(() -> commits.write(item)));
            }
            waitUntilQueued(batch);
            release.countDown();
            assertThat(batch.get(0).get()).isEqualTo("stored 12");
            assertThat(batch.get(2).get()).isEqualTo("stored 14");
            assertThatThrownBy(batch.get(1)::get).cause().isInstanceOf(DuplicateKeyException.class).hasMessage(TAKEN + " is taken");
        }
        assertThat(transactions.stream().flatMap(List::stream)).containsExactlyInAnyOrder(0, 12, 14);
    }

    @Test
    void aDatabaseOutageFailsTheWholeBatchAtOnceWithoutRetryingEachItem() throws Exception {
        List<List<Integer>> attempts = new CopyOnWriteArrayList<>();
        try (GroupCommit<Integer, String> commits = new GroupCommit<>("test-commits", 64, items -> {
            attempts.add(List.copyOf(items));
            if (items.contains(0)) {
                return commit(items);
            }
            throw new DataAccessResourceFailureException("the database is away");
        }); ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            callers.submit(() -> commits.write(0));
            assertThat(firstCommitting.await(10, TimeUnit.SECONDS)).isTrue();
            List<Future<String>> batch = new ArrayList<>();
            for (int item = 1; item <= 5; item++) {
                int each = item;
                batch.add(callers.submit(() -> commits.write(each)));
            }
            waitUntilQueued(batch);
            release.countDown();
            for (Future<String> caller : batch) {
                assertThatThrownBy(caller::get).hasCauseInstanceOf(DataAccessResourceFailureException.class);
            }
        }
        assertThat(attempts).hasSize(2);
    }

    @Test
    void closingCommitsWhatWasHandedOverAndRefusesWhatComesAfter() throws Exception {
        GroupCommit<Integer, String> commits = new GroupCommit<>("test-commits", 64, this::commit);
        assertThat(commits.write(1)).isEqualTo("stored 1");
        commits.close();
        assertThatThrownBy(() -> commits.write(2)).isInstanceOf(IllegalStateException.class).hasMessageContaining("stopping");
        assertThat(transactions).containsExactly(List.of(1));
    }

    /** Gives the callers time to hand their items over while the writer is held in a commit. */
    private static void waitUntilQueued(List<Future<String>> callers) throws InterruptedException {
        Thread.sleep(300);
        assertThat(callers).noneMatch(Future::isDone);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
