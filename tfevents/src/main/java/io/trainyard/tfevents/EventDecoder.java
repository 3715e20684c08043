package io.trainyard.tfevents;

import java.util.List;

/**
 * Decodes the scalars of one serialized {@code tensorflow.Event}. Only these fields are read (TensorFlow's
 * {@code event.proto}, {@code summary.proto}, {@code tensor.proto}, {@code tensor_shape.proto}):
 * <pre>
 * Event          { double wall_time = 1; int64 step = 2; Summary summary = 5; }
 * Summary        { repeated Value value = 1; }
 * Summary.Value  { string tag = 1; float simple_value = 2; TensorProto tensor = 8; SummaryMetadata metadata = 9; }
 * SummaryMetadata{ PluginData plugin_data = 1; DataClass data_class = 4; }   PluginData { string plugin_name = 1; }
 * TensorProto    { DataType dtype = 1; TensorShapeProto tensor_shape = 2; bytes tensor_content = 4;
 *                  repeated float float_val = 5; repeated double double_val = 6; repeated int32 int_val = 7;
 *                  repeated int64 int64_val = 10; repeated int32 half_val = 13; }
 * TensorShapeProto { repeated Dim dim = 2; }   Dim { int64 size = 1; }
 * </pre>
 * A value is a scalar when it has a {@code simple_value} (PyTorch's default {@code add_scalar}), or when it
 * holds a one-element numeric tensor that its metadata, if any, does not claim for another plugin (PyTorch's
 * {@code new_style=True} and TensorFlow 2, which writes the metadata only with a tag's first value).
 */
final class EventDecoder {

    private static final int DATA_CLASS_SCALAR = 1;
    private static final String SCALARS_PLUGIN = "scalars";

    // TensorFlow DataType numbers of the numeric types a scalar may have.
    private static final int DT_FLOAT = 1;
    private static final int DT_DOUBLE = 2;
    private static final int DT_INT32 = 3;
    private static final int DT_UINT8 = 4;
    private static final int DT_INT16 = 5;
    private static final int DT_INT8 = 6;
    private static final int DT_INT64 = 9;
    private static final int DT_BOOL = 10;
    private static final int DT_BFLOAT16 = 14;
    private static final int DT_HALF = 19;

    private EventDecoder() {
    }

    /** Adds the event's scalars to {@code out}. */
    static void decode(byte[] bytes, int offset, int length, List<Scalar> out) throws MalformedEventException {
        ProtoReader event = new ProtoReader(bytes, offset, length);
        double wallTime = 0;
        long step = 0;
        ProtoReader summary = null;
        while (event.hasMore()) {
            int key = event.readKey();
            switch (key) {
                case 1 << 3 | ProtoReader.FIXED64 -> wallTime = event.readDouble();
                case 2 << 3 | ProtoReader.VARINT -> step = event.readVarint();
                case 5 << 3 | ProtoReader.LENGTH_DELIMITED -> summary = event.readDelimited();
                default -> event.skip(key & 7);
            }
        }
        if (summary == null) {
            return;
        }
        while (summary.hasMore()) {
            int key = summary.readKey();
            if (key == (1 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                Scalar scalar = value(summary.readDelimited(), step, wallTime);
                if (scalar != null) {
                    out.add(scalar);
                }
            } else {
                summary.skip(key & 7);
            }
        }
    }

    /** The scalar a {@code Summary.Value} holds, or null if it holds something else (an image, a histogram). */
    private static Scalar value(ProtoReader value, long step, double wallTime) throws MalformedEventException {
        String tag = "";
        Float simpleValue = null;
        ProtoReader tensor = null;
        boolean claimedByOtherPlugin = false;
        while (value.hasMore()) {
            int key = value.readKey();
            switch (key) {
                case 1 << 3 | ProtoReader.LENGTH_DELIMITED -> tag = value.readString();
                case 2 << 3 | ProtoReader.FIXED32 -> simpleValue = value.readFloat();
                case 8 << 3 | ProtoReader.LENGTH_DELIMITED -> tensor = value.readDelimited();
                case 9 << 3 | ProtoReader.LENGTH_DELIMITED -> claimedByOtherPlugin = isOtherPlugin(value.readDelimited());
                default -> value.skip(key & 7);
            }
        }
        if (simpleValue != null) {
            return new Scalar(tag, step, wallTime, simpleValue);
        }
        if (tensor == null || claimedByOtherPlugin) {
            return null;
        }
        Double number = singleNumber(tensor);
        return number == null ? null : new Scalar(tag, step, wallTime, number);
    }

    /** Whether the metadata names a plugin other than scalars and does not mark the value a scalar. */
    private static boolean isOtherPlugin(ProtoReader metadata) throws MalformedEventException {
        String plugin = "";
        long dataClass = 0;
        while (metadata.hasMore()) {
            int key = metadata.readKey();
            if (key == (1 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                ProtoReader pluginData = metadata.readDelimited();
                while (pluginData.hasMore()) {
                    int pluginKey = pluginData.readKey();
                    if (pluginKey == (1 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                        plugin = pluginData.readString();
                    } else {
                        pluginData.skip(pluginKey & 7);
                    }
                }
            } else if (key == (4 << 3 | ProtoReader.VARINT)) {
                dataClass = metadata.readVarint();
            } else {
                metadata.skip(key & 7);
            }
        }
        return !plugin.isEmpty() && !plugin.equals(SCALARS_PLUGIN) && dataClass != DATA_CLASS_SCALAR;
    }

    /** The value of a numeric tensor with exactly one element, or null for any other tensor. */
    private static Double singleNumber(ProtoReader tensor) throws MalformedEventException {
        int dtype = 0;
        long elements = 1;
        Double fromValues = null;
        ProtoReader content = null;
        while (tensor.hasMore()) {
            int key = tensor.readKey();
            int field = key >>> 3;
            int wireType = key & 7;
            switch (field) {
                case 1 -> dtype = (int) tensor.readVarint();
                case 2 -> elements = elementCount(tensor.readDelimited());
                case 4 -> content = tensor.readDelimited();
                case 5 -> fromValues = firstOf(tensor, wireType, ProtoReader.FIXED32, r -> (double) r.readFloat());
                case 6 -> fromValues = firstOf(tensor, wireType, ProtoReader.FIXED64, ProtoReader::readDouble);
                case 7, 10 -> fromValues = firstOf(tensor, wireType, ProtoReader.VARINT, r -> (double) r.readVarint());
                case 11 -> fromValues = firstOf(tensor, wireType, ProtoReader.VARINT, r -> r.readVarint() != 0 ? 1.0 : 0.0);
                case 13 -> fromValues = firstOf(tensor, wireType, ProtoReader.VARINT,
                        r -> (double) Float.float16ToFloat((short) r.readVarint()));
                default -> tensor.skip(wireType);
            }
        }
        if (elements != 1) {
            return null;
        }
        if (content != null && content.remaining() > 0) {
            return fromContent(dtype, content);
        }
        return isNumeric(dtype) ? fromValues : null;
    }

    private static boolean isNumeric(int dtype) {
        return switch (dtype) {
            case DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_INT64, DT_BOOL, DT_BFLOAT16, DT_HALF -> true;
            default -> false;
        };
    }

    private static long elementCount(ProtoReader shape) throws MalformedEventException {
        long count = 1;
        while (shape.hasMore()) {
            int key = shape.readKey();
            if (key == (2 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                ProtoReader dim = shape.readDelimited();
                while (dim.hasMore()) {
                    int dimKey = dim.readKey();
                    if (dimKey == (1 << 3 | ProtoReader.VARINT)) {
                        count *= dim.readVarint();
                    } else {
                        dim.skip(dimKey & 7);
                    }
                }
            } else {
                shape.skip(key & 7);
            }
        }
        return count;
    }

    /** The one element of {@code tensor_content}: raw little-endian bytes of the tensor's dtype. */
    private static Double fromContent(int dtype, ProtoReader content) throws MalformedEventException {
        return switch (dtype) {
            case DT_FLOAT -> (double) content.readFloat();
            case DT_DOUBLE -> content.readDouble();
            case DT_INT32 -> (double) content.readFixed32();
            case DT_INT64 -> (double) content.readFixed64();
            case DT_UINT8 -> (double) (content.byteAt(0) & 0xff);
            case DT_INT8 -> (double) content.byteAt(0);
            case DT_BOOL -> content.byteAt(0) != 0 ? 1.0 : 0.0;
            case DT_INT16, DT_HALF, DT_BFLOAT16 -> {
                if (content.remaining() < 2) {
                    throw new MalformedEventException("tensor_content shorter than its dtype");
                }
                int bits = (content.byteAt(0) & 0xff) | (content.byteAt(1) & 0xff) << 8;
                yield switch (dtype) {
                    case DT_INT16 -> (double) (short) bits;
                    case DT_HALF -> (double) Float.float16ToFloat((short) bits);
                    default -> (double) Float.intBitsToFloat(bits << 16);
                };
            }
            default -> null;
        };
    }

    private interface ElementReader {
        double read(ProtoReader reader) throws MalformedEventException;
    }

    /** The first element of a repeated field, packed (one length-delimited field) or not (this field itself). */
    private static Double firstOf(ProtoReader tensor, int wireType, int elementWireType, ElementReader element)
            throws MalformedEventException {
        if (wireType == ProtoReader.LENGTH_DELIMITED) {
            ProtoReader packed = tensor.readDelimited();
            return packed.hasMore() ? element.read(packed) : null;
        }
        if (wireType != elementWireType) {
            throw new MalformedEventException("tensor value of wire type " + wireType);
        }
        return element.read(tensor);
    }
}
