# bash completion for meshgossip-mpi (installed as
# share/bash-completion/completions/meshgossip-mpi): its commands and their
# options; run and verify take meshgossip's own options (and --serial K).
_meshgossip_mpi() {
  local cur prev cmd
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "run verify calibrate bench --help --version" -- "$cur"))
    return
  fi
  cmd=${COMP_WORDS[1]}
  case $prev in
    --algo)
      local algos
      algos=$(meshgossip list 2>/dev/null | awk '/^[a-z0-9]/ {print $1}')
      COMPREPLY=($(compgen -W "auto $algos" -- "$cur"))
      return ;;
    --coll) COMPREPLY=($(compgen -W "allgather alltoall" -- "$cur")); return ;;
    --sync) COMPREPLY=($(compgen -W "rounds data auto" -- "$cur")); return ;;
    --topo) COMPREPLY=($(compgen -W "ring: line: torus: mesh: meshbus:" -- "$cur")); compopt -o nospace; return ;;
    -o|--out|--export) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --model|--r|--bytes|--sizes|--reps|--serial|-m|-i|-x|--iterations|--warmup|--mem-limit) return ;;
  esac
  local opts
  case $cmd in
    run) opts="--algo --problem --topo --model --r --bytes --json --mem-limit --serial" ;;
    verify) opts="--json --mem-limit --serial"; COMPREPLY=($(compgen -f -- "$cur")) ;;
    calibrate) opts="--sizes --reps --json -o" ;;
    bench) opts="--coll --algo --topo -m --sizes -i -x -f --json --sync" ;;
  esac
  COMPREPLY+=($(compgen -W "$opts --help" -- "$cur"))
}
complete -F _meshgossip_mpi meshgossip-mpi
