package io.trainyard.backend.local.agent;

import java.util.List;

import io.trainyard.logs.PendingLine;

/** Where a {@link FileTailer} puts the lines it reads. */
interface LineSink {

    /** Takes the lines, waiting while there is no room for them. */
    void addAll(List<PendingLine> lines) throws InterruptedException;
}
