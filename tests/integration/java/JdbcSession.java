import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * One pgJDBC session driven line by line from stdin, so a test can change
 * policies between two statements of the same open session:
 *
 *   PREPARE <sql>     prepare a statement (server-prepared from its first run: prepareThreshold=1)
 *   EXEC [p1 …]      run the prepared statement with integer parameters
 *   QUERY <sql>       run a plain Statement
 *   QUIT
 *
 * Each command answers with ROW lines (tab-separated, NULL as \N), then
 * "END <rows> serverPrepared=<bool>", or one line "ERROR <sqlstate> <message>".
 * Usage: JdbcSession host port user password database
 */
public class JdbcSession {
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.setProperty("user", args[2]);
    p.setProperty("password", args[3]);
    p.setProperty("sslmode", "disable");
    p.setProperty("prepareThreshold", "1");
    p.setProperty("connectTimeout", "10");
    p.setProperty("socketTimeout", "30");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + args[0] + ":" + args[1] + "/" + args[4], p)) {
      System.out.println("READY");
      System.out.flush();
      PreparedStatement ps = null;
      for (String line; (line = in.readLine()) != null; ) {
        try {
          if (line.startsWith("PREPARE ")) {
            if (ps != null) ps.close();
            ps = c.prepareStatement(line.substring(8));
            System.out.println("END 0 serverPrepared=false");
          } else if (line.equals("EXEC") || line.startsWith("EXEC ")) {
            String[] params = line.length() > 5 ? line.substring(5).trim().split(" ") : new String[0];
            for (int i = 0; i < params.length; i++) ps.setInt(i + 1, Integer.parseInt(params[i]));
            try (ResultSet rs = ps.executeQuery()) {
              int n = print(rs);
              boolean server = ps.unwrap(org.postgresql.PGStatement.class).isUseServerPrepare();
              System.out.println("END " + n + " serverPrepared=" + server);
            }
          } else if (line.startsWith("QUERY ")) {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(line.substring(6))) {
              System.out.println("END " + print(rs) + " serverPrepared=false");
            }
          } else if (line.equals("QUIT")) {
            break;
          } else {
            System.out.println("ERROR XX000 unknown command");
          }
        } catch (SQLException e) {
          System.out.println("ERROR " + e.getSQLState() + " " + e.getMessage().replace('\n', ' '));
        }
        System.out.flush();
      }
    }
  }

  static int print(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = 0;
    while (rs.next()) {
      StringBuilder b = new StringBuilder("ROW");
      for (int i = 1; i <= md.getColumnCount(); i++) {
        String v = rs.getString(i);
        b.append('\t').append(v == null ? "\\N" : v);
      }
      System.out.println(b);
      n++;
    }
    return n;
  }
}
