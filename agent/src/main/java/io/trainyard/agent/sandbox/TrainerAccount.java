package io.trainyard.agent.sandbox;

/**
 * The unprivileged identity a root agent switches its trainers to: a uid and gid no account of the host should
 * use, so that a trainer owns nothing outside its work folder and may signal no process of the host.
 */
public record TrainerAccount(int uid, int gid) {

    /** The top of the range Debian leaves to packages (60000-64999), which no package asks for. */
    public static final int DEFAULT_ID = 64999;

    /** {@code UID} or {@code UID:GID}; the gid defaults to the uid. */
    public static TrainerAccount parse(String text) {
        String[] ids = text.strip().split(":", 2);
        try {
            int uid = Integer.parseInt(ids[0]);
            return new TrainerAccount(uid, ids.length == 2 ? Integer.parseInt(ids[1]) : uid);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the trainers' account must be UID or UID:GID (numbers), got '" + text + "'");
        }
    }

    public TrainerAccount {
        if (uid <= 0 || gid <= 0) {
            throw new IllegalArgumentException("the trainers' uid and gid must not be root's (got " + uid + ":" + gid + ")");
        }
    }
}
