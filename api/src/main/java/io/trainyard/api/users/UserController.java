package io.trainyard.api.users;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.api.tokens.NewToken;
import io.trainyard.api.tokens.TokenLifetimes;
import io.trainyard.api.tokens.TokenView;
import io.trainyard.security.Caller;
import io.trainyard.security.Callers;
import io.trainyard.security.Role;
import io.trainyard.security.audit.Audited;
import io.trainyard.security.tokens.ApiTokens;
import io.trainyard.security.users.Users;
import io.trainyard.validation.ConflictException;
import io.trainyard.validation.NotFoundException;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Users: who the caller is (anyone), and for global admins the list, new users and their first tokens. */
@RestController
@RequestMapping("/users")
@Tag(name = "users", description = "Users, and tokens made for them by a global admin")
public class UserController {

    /** What a user name may be. */
    public static final String NAME = "^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$";

    private final Users users;
    private final ApiTokens tokens;
    private final TokenLifetimes lifetimes;

    public UserController(Users users, ApiTokens tokens, TokenLifetimes lifetimes) {
        this.users = users;
        this.tokens = tokens;
        this.lifetimes = lifetimes;
    }

    @Schema(name = "User")
    public record UserView(String name, boolean globalAdmin, Instant createdAt) {
    }

    /** The caller: its name, whether it is a global admin, and its role in each project. */
    @Schema(name = "CurrentUser")
    public record Me(String name, boolean globalAdmin, Map<String, Role> roles) {
    }

    public record NewUser(
            @NotNull @Pattern(regexp = NAME,
                    message = "must be 1-128 letters, digits, '.', '_', '@', '+' or '-', starting with a letter or digit")
            String name,
            @Nullable Boolean globalAdmin) {
    }

    @GetMapping("/me")
    @Operation(operationId = "getCurrentUser", summary = "Who you are: your name, whether you are a global admin, your role in each project")
    public Me me() {
        Caller.User user = Callers.currentUser();
        return new Me(user.name(), user.globalAdmin(), user.roles());
    }

    @GetMapping
    @Operation(operationId = "listUsers", summary = "Every user (global admins)")
    public List<UserView> list() {
        return users.all().stream().map(user -> new UserView(user.name(), user.globalAdmin(), user.createdAt())).toList();
    }

    @PostMapping
    @Audited("user.create")
    @Operation(operationId = "createUser", summary = "Create a user (global admins); give it a role in projects and a token next")
    @ApiResponse(responseCode = "201", description = "The new user",
            headers = @Header(name = HttpHeaders.LOCATION, description = "Its URL, /users/{name}",
                    schema = @Schema(type = "string", format = "uri-reference")))
    @ApiResponse(responseCode = "409", description = "A user of that name exists")
    public ResponseEntity<UserView> create(@RequestBody @Valid NewUser user) {
        if (!users.create(user.name(), Boolean.TRUE.equals(user.globalAdmin()))) {
            throw new ConflictException("user '" + user.name() + "' exists already");
        }
        Users.User created = users.find(user.name()).orElseThrow();
        return ResponseEntity.created(URI.create("/users/" + created.name()))
                .body(new UserView(created.name(), created.globalAdmin(), created.createdAt()));
    }

    @GetMapping("/{name}")
    @Operation(operationId = "getUser", summary = "A user (global admins)")
    public UserView get(@Parameter(schema = @Schema(pattern = NAME)) @PathVariable String name) {
        Users.User user = users.find(name).orElseThrow(() -> new NotFoundException("No such user", "no user '" + name + "'"));
        return new UserView(user.name(), user.globalAdmin(), user.createdAt());
    }

    @PostMapping("/{name}/tokens")
    @Audited("token.create")
    @Operation(operationId = "createUserToken", summary = "Create a token for a user (global admins); its secret is in this answer only")
    @ApiResponse(responseCode = "201", description = "The new token, with its secret",
            headers = @Header(name = HttpHeaders.LOCATION, description = "Its URL, /tokens/{id}",
                    schema = @Schema(type = "string", format = "uri-reference")))
    public ResponseEntity<TokenView> createToken(@Parameter(schema = @Schema(pattern = NAME)) @PathVariable String name,
            @RequestBody @Valid NewToken token) {
        if (users.find(name).isEmpty()) {
            throw new NotFoundException("No such user", "no user '" + name + "'");
        }
        ApiTokens.Created created = tokens.createForUser(name, token.name(), lifetimes.of(token), Callers.current().name());
        return ResponseEntity.created(URI.create("/tokens/" + created.token().id()))
                .body(TokenView.of(created.token(), created.secret()));
    }
}
