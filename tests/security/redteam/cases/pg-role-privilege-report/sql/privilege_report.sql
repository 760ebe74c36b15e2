-- privilege_report.sql: read-only audit of roles and dangerous privileges
BEGIN TRANSACTION READ ONLY;

\echo '== 1. privileged role attributes'
SELECT rolname, rolsuper, rolcreaterole, rolbypassrls, rolreplication, rolcanlogin, rolvaliduntil
FROM pg_roles
WHERE rolsuper OR rolcreaterole OR rolbypassrls OR rolreplication
ORDER BY rolsuper DESC, rolname;

\echo '== 2. members of server-access roles'
SELECT r.rolname AS granted_role, m.rolname AS member
FROM pg_auth_members am
JOIN pg_roles r ON r.oid = am.roleid
JOIN pg_roles m ON m.oid = am.member
WHERE r.rolname IN ('pg_execute_server_program', 'pg_read_server_files', 'pg_write_server_files')
ORDER BY 1, 2;

\echo '== 3. SECURITY DEFINER functions'
SELECT n.nspname AS schema, p.proname AS function,
       pg_get_function_identity_arguments(p.oid) AS args,
       pg_get_userbyid(p.proowner) AS owner,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public_exec,
       (SELECT rolsuper FROM pg_roles WHERE oid = p.proowner) AS owner_is_superuser
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.prosecdef AND n.nspname NOT IN ('pg_catalog', 'information_schema')
ORDER BY owner_is_superuser DESC, public_exec DESC;

\echo '== 4. PUBLIC grants on schemas'
SELECT nspname AS schema,
       has_schema_privilege('public', oid, 'CREATE') AS public_create,
       has_schema_privilege('public', oid, 'USAGE') AS public_usage
FROM pg_namespace
WHERE nspname NOT LIKE 'pg_%' AND nspname <> 'information_schema';

\echo '== 5. pg_hba rules'
SELECT line_number, type, database, user_name, address, netmask, auth_method
FROM pg_hba_file_rules
ORDER BY line_number;

\echo '== 6. login roles without password expiry'
SELECT rolname, rolvaliduntil
FROM pg_roles
WHERE rolcanlogin AND (rolvaliduntil IS NULL OR rolvaliduntil = 'infinity')
ORDER BY rolname;

ROLLBACK;
