package io.trainyard.database;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

import org.hibernate.exception.JDBCConnectionException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Tells a database that could not be reached (down, restarting, cut off, out of connections) from every
 * other failure: the first is worth a 503 and a retry, the second is a bug or bad data.
 */
public final class DatabaseFailures {

    private static final int MAX_CAUSES = 20;
    private static final String HIKARI_CLOSED_CONNECTION = "Connection is closed";

    private DatabaseFailures() {
    }

    public static boolean isUnreachable(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
            if (cause instanceof CannotCreateTransactionException || cause instanceof DataAccessResourceFailureException
                    || cause instanceof JDBCConnectionException || cause instanceof SQLTransientConnectionException
                    || cause instanceof SQLNonTransientConnectionException || cause instanceof ConnectException) {
                return true;
            }
            // HikariCP's stand-in for a pooled connection it already evicted as broken (it has no SQLSTATE).
            if (cause instanceof SQLException sql && HIKARI_CLOSED_CONNECTION.equals(sql.getMessage())) {
                return true;
            }
            // SQLSTATE class 08: connection exception; 57P01-57P03: the server is shutting down or starting up.
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }
}
