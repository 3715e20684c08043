package io.trainyard.agent.logs;

import java.util.List;

import io.trainyard.protocol.LineQueue;

/** Where a {@link FileTailer} puts the lines it reads: a {@link LineQueue}, or a test's list. */
public interface LineSink {

    /** Takes the lines, waiting while there is no room for them. */
    void addAll(List<LineQueue.Entry> lines) throws InterruptedException;
}
