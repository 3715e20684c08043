package io.trainyard.tfevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventFileReaderTest {

    @TempDir
    Path folder;

    /**
     * Written by PyTorch's SummaryWriter (see {@code pytorch-events.py} beside it): {@code loss} by
     * {@code add_scalar} (simple_value), {@code tensor_style} by {@code add_scalar(new_style=True)}, a histogram
     * and a text that are not scalars.
     */
    @Test
    void readsTheScalarsPyTorchWrites() throws IOException {
        Path file = folder.resolve("events.out.tfevents.pytorch");
        try (InputStream fixture = getClass().getResourceAsStream("pytorch-events.tfevents")) {
            Files.copy(fixture, file);
        }
        EventFileReader.Read read = read(file, 0, 1000, true);

        assertThat(read.skipped()).isEmpty();
        assertThat(read.offsetAfter()).isEqualTo(Files.size(file));
        assertThat(read.scalars()).filteredOn(s -> s.tag().equals("loss"))
                .extracting(Scalar::step, Scalar::value)
                .containsExactly(tuple(0L, 1.0), tuple(1L, 0.5),
                        tuple(2L, 0.25));
        assertThat(read.scalars()).filteredOn(s -> s.tag().equals("tensor_style"))
                .extracting(Scalar::step, Scalar::value)
                .containsExactly(tuple(0L, 3.0), tuple(1L, 4.0),
                        tuple(2L, 5.0));
        assertThat(read.scalars()).extracting(Scalar::tag).containsOnly("loss", "tensor_style");
        assertThat(read.scalars()).allSatisfy(s -> assertThat(s.wallTime()).isGreaterThan(1.7e9));
    }

    @Test
    void followsAGrowingFileRecordByRecord() throws IOException {
        byte[] two = new EventRecords().fileVersion(1).scalar("loss", 1, 10, 0.5f).scalar("loss", 2, 11, 0.25f).bytes();
        int firstTwoRecords = new EventRecords().fileVersion(1).scalar("loss", 1, 10, 0.5f).bytes().length;
        Path file = folder.resolve("events");
        // The writer has written the second scalar's record only in part so far.
        Files.write(file, Arrays.copyOf(two, firstTwoRecords + 7));

        EventFileReader.Read first = read(file, 0, 100, false);
        assertThat(first.scalars()).containsExactly(new Scalar("loss", 1, 10, 0.5));
        assertThat(first.offsetAfter()).isEqualTo(firstTwoRecords);
        assertThat(first.skipped()).isEmpty();

        Files.write(file, Arrays.copyOfRange(two, firstTwoRecords + 7, two.length), StandardOpenOption.APPEND);
        EventFileReader.Read second = read(file, first.offsetAfter(), 100, false);
        assertThat(second.scalars()).containsExactly(new Scalar("loss", 2, 11, 0.25));
        assertThat(second.offsetAfter()).isEqualTo(two.length);
    }

    @Test
    void stopsAfterEnoughScalarsAndResumesWhereItStopped() throws IOException {
        EventRecords records = new EventRecords();
        for (int step = 0; step < 10; step++) {
            records.scalar("loss", step, step, step);
        }
        Path file = Files.write(folder.resolve("events"), records.bytes());

        EventFileReader.Read first = read(file, 0, 4, false);
        EventFileReader.Read rest = read(file, first.offsetAfter(), 100, false);

        assertThat(first.scalars()).extracting(Scalar::step).containsExactly(0L, 1L, 2L, 3L);
        assertThat(rest.scalars()).extracting(Scalar::step).containsExactly(4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void skipsARecordWhoseDataFailsItsChecksum() throws IOException {
        byte[] bytes = new EventRecords().scalar("loss", 1, 1, 1).scalar("loss", 2, 2, 2).scalar("loss", 3, 3, 3).bytes();
        int recordLength = bytes.length / 3;
        bytes[recordLength + 20] ^= 0x40; // inside the second record's data

        EventFileReader.Read read = read(Files.write(folder.resolve("events"), bytes), 0, 100, false);

        assertThat(read.scalars()).extracting(Scalar::step).containsExactly(1L, 3L);
        assertThat(read.skipped()).singleElement().asString()
                .contains("record at offset " + recordLength).contains("failed its checksum");
        assertThat(read.offsetAfter()).isEqualTo(bytes.length);
    }

    @Test
    void skipsToTheNextValidRecordWhenALengthIsDamaged() throws IOException {
        byte[] bytes = new EventRecords().scalar("loss", 1, 1, 1).scalar("loss", 2, 2, 2).scalar("loss", 3, 3, 3).bytes();
        int recordLength = bytes.length / 3;
        bytes[recordLength] = (byte) 0xff; // the second record's length

        EventFileReader.Read read = read(Files.write(folder.resolve("events"), bytes), 0, 100, false);

        assertThat(read.scalars()).extracting(Scalar::step).containsExactly(1L, 3L);
        assertThat(read.skipped()).singleElement().asString()
                .contains("skipped " + recordLength + " bytes at offset " + recordLength);
    }

    @Test
    void skipsARecordCutShortOnceTheFileIsComplete() throws IOException {
        byte[] bytes = new EventRecords().scalar("loss", 1, 1, 1).scalar("loss", 2, 2, 2).bytes();
        Path file = Files.write(folder.resolve("events"), Arrays.copyOf(bytes, bytes.length - 3));

        EventFileReader.Read stillWritten = read(file, 0, 100, false);
        EventFileReader.Read complete = read(file, 0, 100, true);

        assertThat(stillWritten.skipped()).isEmpty();
        assertThat(stillWritten.offsetAfter()).isEqualTo(bytes.length / 2);
        assertThat(complete.scalars()).extracting(Scalar::step).containsExactly(1L);
        assertThat(complete.skipped()).singleElement().asString().contains("cut short");
        assertThat(complete.offsetAfter()).isEqualTo(bytes.length - 3);
    }

    @Test
    void survivesGarbage() throws IOException {
        byte[] garbage = new byte[100_000];
        new Random(7).nextBytes(garbage);
        byte[] valid = new EventRecords().scalar("loss", 9, 9, 9).bytes();
        Path file = Files.write(folder.resolve("events"), EventRecords.concat(garbage, valid));

        EventFileReader.Read read = read(file, 0, 100, true);

        assertThat(read.scalars()).extracting(Scalar::step).containsExactly(9L);
        assertThat(read.offsetAfter()).isEqualTo(garbage.length + valid.length);
    }

    @Test
    void skipsARecordThatIsNoEvent() throws IOException {
        byte[] bytes = new EventRecords().record(new byte[] {(byte) 0x0f, 1, 2}).scalar("loss", 2, 2, 2).bytes();

        EventFileReader.Read read = read(Files.write(folder.resolve("events"), bytes), 0, 100, false);

        assertThat(read.scalars()).extracting(Scalar::step).containsExactly(2L);
        assertThat(read.skipped()).singleElement().asString().contains("not an event");
    }

    @Test
    void readsBackWhatItsWriterWrote() throws IOException {
        Path file = folder.resolve("events.out.tfevents.trainyard");
        try (EventFileWriter writer = new EventFileWriter(Files.newOutputStream(file), 1.7e9)) {
            writer.scalar("train/loss", 1, 1.7e9 + 1, 0.5);
            writer.scalar("train/loss", 300, 1.7e9 + 2, -2.25);
        }

        EventFileReader.Read read = read(file, 0, 100, true);

        assertThat(read.skipped()).isEmpty();
        assertThat(read.scalars()).containsExactly(new Scalar("train/loss", 1, 1.7e9 + 1, 0.5),
                new Scalar("train/loss", 300, 1.7e9 + 2, -2.25));
    }

    private static EventFileReader.Read read(Path file, long offset, int maxScalars, boolean complete) throws IOException {
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            return EventFileReader.read(channel, file.getFileName().toString(), offset, maxScalars, complete);
        }
    }

}
