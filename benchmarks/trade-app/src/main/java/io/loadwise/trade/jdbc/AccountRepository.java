package io.loadwise.trade.jdbc;

import io.loadwise.trade.model.Account;
import io.loadwise.trade.model.AccountProfile;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/** Login, logout, registration, account and profile reads and profile updates. */
public final class AccountRepository {

    private static final String INSERT_PROFILE = "INSERT INTO trade_profile (userid, passwd, fullname, address,"
            + " email, creditcard) VALUES (?, '" + TradeSchema.PASSWORD + "', ?, ?, ?, ?)";
    private static final String SELECT_ACCOUNT = "SELECT accountid, userid, creationdate, lastlogin, logincount,"
            + " logoutcount, balance, openbalance FROM trade_account";

    private final DataSource dataSource;

    public AccountRepository(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Checks the password and counts the login; empty when the user is unknown or the password wrong. */
    public Optional<Account> login(String userId, String password) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT passwd FROM trade_profile WHERE userid = ?")) {
                ps.setString(1, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || !rs.getString(1).equals(password)) {
                        return Optional.empty();
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE trade_account SET lastlogin = ?, logincount = logincount + 1 WHERE userid = ?")) {
                ps.setTimestamp(1, Timestamp.from(Instant.now()));
                ps.setString(2, userId);
                ps.executeUpdate();
            }
            return findAccount(c, "userid", userId);
        } catch (SQLException e) {
            throw DatabaseNotBuiltException.translate(e);
        }
    }

    public void logout(String userId) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "UPDATE trade_account SET logoutcount = logoutcount + 1 WHERE userid = ?")) {
            ps.setString(1, userId);
            ps.executeUpdate();
        }
    }

    /** Creates a profile and an account with the given opening balance, as one transaction. */
    public Account register(AccountProfile profile, BigDecimal openBalance) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(INSERT_PROFILE)) {
                bindProfile(ps, profile);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO trade_account (userid, creationdate,"
                    + " lastlogin, logincount, logoutcount, balance, openbalance) VALUES (?, ?, ?, 1, 0, ?, ?)")) {
                Timestamp now = Timestamp.from(Instant.now());
                ps.setString(1, profile.userId());
                ps.setTimestamp(2, now);
                ps.setTimestamp(3, now);
                ps.setBigDecimal(4, openBalance);
                ps.setBigDecimal(5, openBalance);
                ps.executeUpdate();
            }
            Account account = findAccount(c, "userid", profile.userId())
                    .orElseThrow(() -> new SQLException("registered account vanished: " + profile.userId()));
            c.commit();
            return account;
        }
    }

    public Optional<Account> account(int accountId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return findAccount(c, "accountid", accountId);
        }
    }

    public Optional<AccountProfile> profile(String userId) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT userid, fullname, address, email, creditcard FROM trade_profile WHERE userid = ?")) {
            ps.setString(1, userId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(new AccountProfile(rs.getString(1), rs.getString(2), rs.getString(3),
                                rs.getString(4), rs.getString(5)))
                        : Optional.empty();
            }
        }
    }

    /** Overwrites the contact details; false when the user does not exist. */
    public boolean updateProfile(AccountProfile profile) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("UPDATE trade_profile SET fullname = ?, address = ?,"
                     + " email = ?, creditcard = ? WHERE userid = ?")) {
            ps.setString(1, profile.fullName());
            ps.setString(2, profile.address());
            ps.setString(3, profile.email());
            ps.setString(4, profile.creditCard());
            ps.setString(5, profile.userId());
            return ps.executeUpdate() == 1;
        }
    }

    private static void bindProfile(PreparedStatement ps, AccountProfile profile) throws SQLException {
        ps.setString(1, profile.userId());
        ps.setString(2, profile.fullName());
        ps.setString(3, profile.address());
        ps.setString(4, profile.email());
        ps.setString(5, profile.creditCard());
    }

    private static Optional<Account> findAccount(Connection c, String column, Object key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SELECT_ACCOUNT + " WHERE " + column + " = ?")) {
            ps.setObject(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                Timestamp lastLogin = rs.getTimestamp(4);
                return Optional.of(new Account(rs.getInt(1), rs.getString(2), rs.getTimestamp(3).toInstant(),
                        lastLogin == null ? null : lastLogin.toInstant(), rs.getInt(5), rs.getInt(6),
                        rs.getBigDecimal(7), rs.getBigDecimal(8)));
            }
        }
    }

    /** The account of a user, without counting a login. */
    public Optional<Account> accountOf(String userId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return findAccount(c, "userid", userId);
        }
    }
}
